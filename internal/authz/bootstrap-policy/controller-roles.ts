/**
 * The roles of kube-controller-manager's controllers (kube's bootstrappolicy controller_policy.go,
 * with the feature gates at their 1.33 defaults): one ClusterRole "system:controller:<name>" per
 * controller, each bound to the service account <name> in kube-system by a ClusterRoleBinding of
 * the same name.
 */
import type { BindingObject, RoleObject } from '../rbac/types.js';
import { clusterBinding, clusterRole, eventsRule, legacyGroup, read, rule, type RuleBuilder } from './builders.js';

/** The prefix of every controller role's name. */
export const controllerRolePrefix = 'system:controller:';

const apps = 'apps';
const extensions = 'extensions';
const batch = 'batch';
const storage = 'storage.k8s.io';
const networking = 'networking.k8s.io';

type ControllerRole = readonly [name: string, rules: readonly RuleBuilder[]];

function workloadControllers(): ControllerRole[] {
  return [
    [
      'cronjob-controller',
      [
        rule('get', 'list', 'watch', 'update').groups(batch).resources('cronjobs'),
        rule('get', 'list', 'watch', 'create', 'update', 'delete', 'patch').groups(batch).resources('jobs'),
        rule('update').groups(batch).resources('cronjobs/status'),
        rule('update').groups(batch).resources('cronjobs/finalizers'),
        rule('list', 'watch', 'delete').groups(legacyGroup).resources('pods'),
        eventsRule(),
      ],
    ],
    [
      'daemon-set-controller',
      [
        rule(...read).groups(extensions, apps).resources('daemonsets'),
        rule('update').groups(extensions, apps).resources('daemonsets/status'),
        rule('update').groups(extensions, apps).resources('daemonsets/finalizers'),
        rule('list', 'watch').groups(legacyGroup).resources('nodes'),
        rule('list', 'watch', 'create', 'delete', 'patch').groups(legacyGroup).resources('pods'),
        rule('create').groups(legacyGroup).resources('pods/binding'),
        rule('get', 'list', 'watch', 'create', 'delete', 'update', 'patch').groups(apps).resources('controllerrevisions'),
        eventsRule(),
      ],
    ],
    [
      'deployment-controller',
      [
        rule('get', 'list', 'watch', 'update').groups(extensions, apps).resources('deployments'),
        rule('update').groups(extensions, apps).resources('deployments/status'),
        rule('update').groups(extensions, apps).resources('deployments/finalizers'),
        rule('get', 'list', 'watch', 'create', 'update', 'patch', 'delete').groups(extensions, apps).resources('replicasets'),
        rule('get', 'list', 'watch', 'update').groups(legacyGroup).resources('pods'),
        eventsRule(),
      ],
    ],
    [
      'disruption-controller',
      [
        rule(...read).groups(extensions, apps).resources('deployments'),
        rule(...read).groups(apps, extensions).resources('replicasets'),
        rule(...read).groups(legacyGroup).resources('replicationcontrollers'),
        rule(...read).groups('policy').resources('poddisruptionbudgets'),
        rule(...read).groups(apps).resources('statefulsets'),
        rule('update').groups('policy').resources('poddisruptionbudgets/status'),
        rule('patch', 'update').groups(legacyGroup).resources('pods/status'),
        rule('get').groups('*').resources('*/scale'),
        eventsRule(),
      ],
    ],
    [
      'horizontal-pod-autoscaler',
      [
        rule(...read).groups('autoscaling').resources('horizontalpodautoscalers'),
        rule('update').groups('autoscaling').resources('horizontalpodautoscalers/status'),
        rule('get', 'update').groups('*').resources('*/scale'),
        rule('list', 'watch').groups(legacyGroup).resources('pods'),
        rule('list', 'watch').groups('metrics.k8s.io').resources('pods'),
        rule(...read).groups('custom.metrics.k8s.io').resources('*'),
        rule(...read).groups('external.metrics.k8s.io').resources('*'),
        eventsRule(),
      ],
    ],
    [
      'job-controller',
      [
        rule('get', 'list', 'watch', 'update', 'patch').groups(batch).resources('jobs'),
        rule('update').groups(batch).resources('jobs/status'),
        rule('update').groups(batch).resources('jobs/finalizers'),
        rule('list', 'watch', 'create', 'delete', 'patch').groups(legacyGroup).resources('pods'),
        eventsRule(),
      ],
    ],
    [
      'replicaset-controller',
      [
        rule('get', 'list', 'watch', 'update').groups(apps, extensions).resources('replicasets'),
        rule('update').groups(apps, extensions).resources('replicasets/status'),
        rule('update').groups(apps, extensions).resources('replicasets/finalizers'),
        rule('list', 'watch', 'patch', 'create', 'delete').groups(legacyGroup).resources('pods'),
        eventsRule(),
      ],
    ],
    [
      'replication-controller',
      [
        rule('get', 'list', 'watch', 'update').groups(legacyGroup).resources('replicationcontrollers'),
        rule('update').groups(legacyGroup).resources('replicationcontrollers/status'),
        rule('update').groups(legacyGroup).resources('replicationcontrollers/finalizers'),
        rule('list', 'watch', 'patch', 'create', 'delete').groups(legacyGroup).resources('pods'),
        eventsRule(),
      ],
    ],
    [
      'statefulset-controller',
      [
        rule('list', 'watch').groups(legacyGroup).resources('pods'),
        rule(...read).groups(apps).resources('statefulsets'),
        rule('update').groups(apps).resources('statefulsets/status'),
        rule('update').groups(apps).resources('statefulsets/finalizers'),
        rule('get', 'create', 'delete', 'update', 'patch').groups(legacyGroup).resources('pods'),
        rule('get', 'create', 'delete', 'update', 'patch', 'list', 'watch').groups(apps).resources('controllerrevisions'),
        rule('get', 'create', 'list', 'watch').groups(legacyGroup).resources('persistentvolumeclaims'),
        rule('update', 'delete').groups(legacyGroup).resources('persistentvolumeclaims'),
        rule('update').groups(legacyGroup).resources('pods/finalizers'),
        eventsRule(),
      ],
    ],
    ['ttl-after-finished-controller', [rule('get', 'list', 'watch', 'delete').groups(batch).resources('jobs'), eventsRule()]],
  ];
}

function clusterControllers(): ControllerRole[] {
  return [
    [
      'certificate-controller',
      [
        rule('get', 'list', 'watch', 'delete').groups('certificates.k8s.io').resources('certificatesigningrequests'),
        rule('update').groups('certificates.k8s.io').resources('certificatesigningrequests/status', 'certificatesigningrequests/approval'),
        rule('approve').groups('certificates.k8s.io').resources('signers').names('kubernetes.io/kube-apiserver-client-kubelet'),
        rule('sign')
          .groups('certificates.k8s.io')
          .resources('signers')
          .names('kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving', 'kubernetes.io/legacy-unknown'),
        rule('create').groups('authorization.k8s.io').resources('subjectaccessreviews'),
        eventsRule(),
      ],
    ],
    ['clusterrole-aggregation-controller', [rule('escalate', 'get', 'list', 'watch', 'update', 'patch').groups('rbac.authorization.k8s.io').resources('clusterroles')]],
    [
      'endpoint-controller',
      [
        rule(...read).groups(legacyGroup).resources('services', 'pods'),
        rule('get', 'list', 'watch', 'create', 'update', 'delete').groups(legacyGroup).resources('endpoints'),
        rule('create').groups(legacyGroup).resources('endpoints/restricted'),
        eventsRule(),
      ],
    ],
    [
      'endpointslice-controller',
      [
        rule(...read).groups(legacyGroup).resources('services', 'pods', 'nodes'),
        rule('update').groups(legacyGroup).resources('services/finalizers'),
        rule('get', 'list', 'watch', 'create', 'update', 'delete').groups('discovery.k8s.io').resources('endpointslices'),
        eventsRule(),
      ],
    ],
    [
      'endpointslicemirroring-controller',
      [
        rule(...read).groups(legacyGroup).resources('services', 'endpoints'),
        rule('update').groups(legacyGroup).resources('services/finalizers'),
        rule('update').groups(legacyGroup).resources('endpoints/finalizers'),
        rule('get', 'list', 'watch', 'create', 'update', 'delete').groups('discovery.k8s.io').resources('endpointslices'),
        eventsRule(),
      ],
    ],
    ['generic-garbage-collector', [rule('get', 'list', 'watch', 'patch', 'update', 'delete').groups('*').resources('*'), eventsRule()]],
    [
      'legacy-service-account-token-cleaner',
      [
        rule('get').groups(legacyGroup).resources('configmaps').names('kube-apiserver-legacy-service-account-token-tracking'),
        rule('patch', 'delete').groups(legacyGroup).resources('secrets'),
      ],
    ],
    [
      'namespace-controller',
      [
        rule('get', 'list', 'watch', 'delete').groups(legacyGroup).resources('namespaces'),
        rule('update').groups(legacyGroup).resources('namespaces/finalize', 'namespaces/status'),
        rule('get', 'list', 'delete', 'deletecollection', 'watch').groups('*').resources('*'),
      ],
    ],
    [
      'node-controller',
      [
        rule('get', 'list', 'update', 'delete', 'patch', 'watch').groups(legacyGroup).resources('nodes'),
        rule('patch', 'update').groups(legacyGroup).resources('nodes/status'),
        rule('patch', 'update').groups(legacyGroup).resources('pods/status'),
        rule('list', 'watch', 'delete', 'get').groups(legacyGroup).resources('pods'),
        eventsRule(),
      ],
    ],
    [
      'pod-garbage-collector',
      [
        rule('list', 'watch', 'delete').groups(legacyGroup).resources('pods'),
        rule('get', 'list', 'watch').groups(legacyGroup).resources('nodes'),
        rule('patch').groups(legacyGroup).resources('pods/status'),
      ],
    ],
    ['resourcequota-controller', [rule('list', 'watch').groups('*').resources('*'), rule('update').groups(legacyGroup).resources('resourcequotas/status'), eventsRule()]],
    ['root-ca-cert-publisher', [rule('create', 'update').groups(legacyGroup).resources('configmaps'), eventsRule()]],
    ['route-controller', [rule('list', 'watch').groups(legacyGroup).resources('nodes'), rule('patch').groups(legacyGroup).resources('nodes/status'), eventsRule()]],
    ['service-account-controller', [rule('create').groups(legacyGroup).resources('serviceaccounts'), eventsRule()]],
    [
      'service-cidrs-controller',
      [
        rule('get', 'list', 'watch', 'patch', 'update').groups(networking).resources('servicecidrs'),
        rule('patch', 'update').groups(networking).resources('servicecidrs/finalizers'),
        rule('patch', 'update').groups(networking).resources('servicecidrs/status'),
        rule(...read).groups(networking).resources('ipaddresses'),
        eventsRule(),
      ],
    ],
    [
      'service-controller',
      [
        rule(...read).groups(legacyGroup).resources('services'),
        rule('patch', 'update').groups(legacyGroup).resources('services/status'),
        rule('list', 'watch').groups(legacyGroup).resources('nodes'),
        eventsRule(),
      ],
    ],
    ['ttl-controller', [rule('update', 'patch', 'list', 'watch').groups(legacyGroup).resources('nodes'), eventsRule()]],
    [
      'validatingadmissionpolicy-status-controller',
      [
        rule(...read).groups('admissionregistration.k8s.io').resources('validatingadmissionpolicies'),
        rule('get', 'patch', 'update').groups('admissionregistration.k8s.io').resources('validatingadmissionpolicies/status'),
        eventsRule(),
      ],
    ],
  ];
}

function storageControllers(): ControllerRole[] {
  return [
    [
      'attachdetach-controller',
      [
        rule('list', 'watch').groups(legacyGroup).resources('persistentvolumes', 'persistentvolumeclaims'),
        rule('get', 'list', 'watch').groups(legacyGroup).resources('nodes'),
        rule('patch', 'update').groups(legacyGroup).resources('nodes/status'),
        rule('list', 'watch').groups(legacyGroup).resources('pods'),
        eventsRule(),
        rule('get', 'create', 'delete', 'list', 'watch').groups(storage).resources('volumeattachments'),
        rule('get', 'watch', 'list').groups(storage).resources('csidrivers'),
        rule('get', 'watch', 'list').groups(storage).resources('csinodes'),
      ],
    ],
    [
      'ephemeral-volume-controller',
      [
        rule('get', 'list', 'watch').groups(legacyGroup).resources('pods'),
        rule('update').groups(legacyGroup).resources('pods/finalizers'),
        rule('get', 'list', 'watch', 'create').groups(legacyGroup).resources('persistentvolumeclaims'),
        eventsRule(),
      ],
    ],
    [
      'expand-controller',
      [
        rule('get', 'list', 'watch', 'update', 'patch').groups(legacyGroup).resources('persistentvolumes'),
        rule('update', 'patch').groups(legacyGroup).resources('persistentvolumeclaims/status'),
        rule('get', 'list', 'watch').groups(legacyGroup).resources('persistentvolumeclaims'),
        eventsRule(),
      ],
    ],
    [
      'persistent-volume-binder',
      [
        rule('get', 'list', 'watch', 'update', 'create', 'delete').groups(legacyGroup).resources('persistentvolumes'),
        rule('update').groups(legacyGroup).resources('persistentvolumes/status'),
        rule('get', 'list', 'watch', 'update').groups(legacyGroup).resources('persistentvolumeclaims'),
        rule('update').groups(legacyGroup).resources('persistentvolumeclaims/status'),
        rule('list', 'watch', 'get', 'create', 'delete').groups(legacyGroup).resources('pods'),
        rule('get', 'list', 'watch').groups(storage).resources('storageclasses'),
        rule('list', 'watch').groups(legacyGroup).resources('nodes'),
        eventsRule(),
        rule('watch').groups(legacyGroup).resources('events'),
      ],
    ],
    ['pv-protection-controller', [rule('get', 'list', 'watch', 'update').groups(legacyGroup).resources('persistentvolumes'), eventsRule()]],
    [
      'pvc-protection-controller',
      [
        rule('get', 'list', 'watch', 'update').groups(legacyGroup).resources('persistentvolumeclaims'),
        rule('update').groups(legacyGroup).resources('persistentvolumeclaims/status'),
        rule('list', 'watch', 'get').groups(legacyGroup).resources('pods'),
        eventsRule(),
      ],
    ],
    [
      'selinux-warning-controller',
      [
        eventsRule(),
        rule(...read).groups(legacyGroup).resources('persistentvolumes'),
        rule(...read).groups(legacyGroup).resources('persistentvolumeclaims'),
        rule(...read).groups(legacyGroup).resources('pods'),
        rule(...read).groups(storage).resources('csidrivers'),
      ],
    ],
  ];
}

function all(): ControllerRole[] {
  return [...workloadControllers(), ...clusterControllers(), ...storageControllers()];
}

/** The controllers' ClusterRoles (fresh objects on each call). */
export function controllerRoles(): RoleObject[] {
  return all().map(([name, rules]) => clusterRole(`${controllerRolePrefix}${name}`, rules));
}

/** The controllers' ClusterRoleBindings: each role to the controller's service account in kube-system. */
export function controllerRoleBindings(): BindingObject[] {
  return all().map(([name]) => clusterBinding(`${controllerRolePrefix}${name}`).serviceAccount('kube-system', name).build());
}
