/**
 * The ClusterRoles kube-apiserver 1.33 creates for users and system components (kube's
 * bootstrappolicy.ClusterRoles, with the feature gates at their 1.33 defaults): cluster-admin,
 * the aggregated admin/edit/view and the system:aggregate-to-* roles feeding them, discovery and
 * public info, the node, scheduler, controller-manager, proxy and DNS roles, and the certificate
 * approver roles.
 */
import type { RoleObject } from '../rbac/types.js';
import { clusterRole, eventsRule, legacyGroup, read, readWrite, rule, write } from './builders.js';

/** The label a ClusterRole carries to be aggregated into admin, edit and view. */
export const aggregateToAdmin = 'rbac.authorization.k8s.io/aggregate-to-admin';
/** Aggregated into edit (and so into admin). */
export const aggregateToEdit = 'rbac.authorization.k8s.io/aggregate-to-edit';
/** Aggregated into view (and so into edit and admin). */
export const aggregateToView = 'rbac.authorization.k8s.io/aggregate-to-view';

const apps = 'apps';
const extensions = 'extensions';
const storage = 'storage.k8s.io';
const certificates = 'certificates.k8s.io';
const coordination = 'coordination.k8s.io';
const authentication = 'authentication.k8s.io';
const authorization = 'authorization.k8s.io';

const tokenReviews = (): ReturnType<typeof rule> => rule('create').groups(authentication).resources('tokenreviews');
const subjectAccessReviews = (): ReturnType<typeof rule> => rule('create').groups(authorization).resources('subjectaccessreviews');

function approver(name: string, signer: string): RoleObject {
  return clusterRole(name, [rule('approve').groups(certificates).resources('signers').names(signer)]);
}

function aggregatedRoles(): RoleObject[] {
  return [
    clusterRole('cluster-admin', [rule('*').groups('*').resources('*'), rule('*').urls('*')]),
    clusterRole('admin', [], { aggregateFrom: aggregateToAdmin }),
    clusterRole('edit', [], { aggregateFrom: aggregateToEdit, labels: { [aggregateToAdmin]: 'true' } }),
    clusterRole('view', [], { aggregateFrom: aggregateToView, labels: { [aggregateToEdit]: 'true' } }),
    clusterRole(
      'system:aggregate-to-admin',
      [rule('create').groups(authorization).resources('localsubjectaccessreviews'), rule(...readWrite).groups('rbac.authorization.k8s.io').resources('roles', 'rolebindings')],
      { labels: { [aggregateToAdmin]: 'true' } },
    ),
    clusterRole(
      'system:aggregate-to-edit',
      [
        rule(...read).groups(legacyGroup).resources('pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy'),
        rule('impersonate').groups(legacyGroup).resources('serviceaccounts'),
        rule(...write).groups(legacyGroup).resources('pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward'),
        rule('create').groups(legacyGroup).resources('pods/eviction'),
        rule(...write)
          .groups(legacyGroup)
          .resources('replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/proxy', 'persistentvolumeclaims', 'configmaps', 'secrets', 'events'),
        rule('create').groups(legacyGroup).resources('serviceaccounts/token'),
        rule(...write)
          .groups(apps)
          .resources('statefulsets', 'statefulsets/scale', 'daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'replicasets', 'replicasets/scale'),
        rule(...write).groups('autoscaling').resources('horizontalpodautoscalers'),
        rule(...write).groups('batch').resources('jobs', 'cronjobs'),
        rule(...write)
          .groups(extensions)
          .resources('daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'ingresses', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale', 'networkpolicies'),
        rule(...write).groups('policy').resources('poddisruptionbudgets'),
        rule(...write).groups('networking.k8s.io').resources('ingresses', 'networkpolicies'),
        rule(...readWrite).groups(coordination).resources('leases'),
      ],
      { labels: { [aggregateToEdit]: 'true' } },
    ),
    clusterRole(
      'system:aggregate-to-view',
      [
        rule(...read)
          .groups(legacyGroup)
          .resources('pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps'),
        rule(...read)
          .groups(legacyGroup)
          .resources('limitranges', 'resourcequotas', 'bindings', 'events', 'pods/status', 'resourcequotas/status', 'namespaces/status', 'replicationcontrollers/status', 'pods/log'),
        rule(...read).groups(legacyGroup).resources('namespaces'),
        rule(...read).groups('discovery.k8s.io').resources('endpointslices'),
        rule(...read)
          .groups(apps)
          .resources(
            'controllerrevisions',
            'statefulsets',
            'statefulsets/scale',
            'statefulsets/status',
            'daemonsets',
            'daemonsets/status',
            'deployments',
            'deployments/scale',
            'deployments/status',
            'replicasets',
            'replicasets/scale',
            'replicasets/status',
          ),
        rule(...read).groups('autoscaling').resources('horizontalpodautoscalers', 'horizontalpodautoscalers/status'),
        rule(...read).groups('batch').resources('jobs', 'cronjobs', 'cronjobs/status', 'jobs/status'),
        rule(...read)
          .groups(extensions)
          .resources(
            'daemonsets',
            'daemonsets/status',
            'deployments',
            'deployments/scale',
            'deployments/status',
            'ingresses',
            'ingresses/status',
            'replicasets',
            'replicasets/scale',
            'replicasets/status',
            'replicationcontrollers/scale',
            'networkpolicies',
          ),
        rule(...read).groups('policy').resources('poddisruptionbudgets', 'poddisruptionbudgets/status'),
        rule(...read).groups('networking.k8s.io').resources('ingresses', 'ingresses/status', 'networkpolicies'),
      ],
      { labels: { [aggregateToView]: 'true' } },
    ),
  ];
}

function discoveryRoles(): RoleObject[] {
  return [
    clusterRole('system:discovery', [
      rule('get').urls('/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'),
    ]),
    clusterRole('system:monitoring', [rule('get').urls('/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*', '/metrics', '/metrics/slis')]),
    clusterRole('system:public-info-viewer', [rule('get').urls('/livez', '/readyz', '/healthz', '/version', '/version/')]),
    clusterRole('system:basic-user', [
      rule('create').groups(authorization).resources('selfsubjectaccessreviews', 'selfsubjectrulesreviews'),
      rule('create').groups(authentication).resources('selfsubjectreviews'),
    ]),
    clusterRole('system:auth-delegator', [tokenReviews(), subjectAccessReviews()]),
    clusterRole('system:service-account-issuer-discovery', [rule('get').urls('/.well-known/openid-configuration', '/openid/v1/jwks')]),
  ];
}

function componentRoles(): RoleObject[] {
  return [
    clusterRole('system:heapster', [rule(...read).groups(legacyGroup).resources('events', 'pods', 'nodes', 'namespaces'), rule(...read).groups(extensions).resources('deployments')]),
    clusterRole('system:node', [
      tokenReviews(),
      rule('create').groups(authorization).resources('subjectaccessreviews', 'localsubjectaccessreviews'),
      rule(...read).groups(legacyGroup).resources('services'),
      rule('create', 'get', 'list', 'watch').groups(legacyGroup).resources('nodes'),
      rule('update', 'patch').groups(legacyGroup).resources('nodes/status'),
      rule('update', 'patch').groups(legacyGroup).resources('nodes'),
      rule('create', 'update', 'patch').groups(legacyGroup).resources('events'),
      rule(...read).groups(legacyGroup).resources('pods'),
      rule('create', 'delete').groups(legacyGroup).resources('pods'),
      rule('update', 'patch').groups(legacyGroup).resources('pods/status'),
      rule('create').groups(legacyGroup).resources('pods/eviction'),
      rule(...read).groups(legacyGroup).resources('secrets', 'configmaps'),
      rule('get').groups(legacyGroup).resources('persistentvolumeclaims', 'persistentvolumes'),
      rule('get').groups(legacyGroup).resources('endpoints'),
      rule('create', 'get', 'list', 'watch').groups(certificates).resources('certificatesigningrequests'),
      rule('get', 'create', 'update', 'patch', 'delete').groups(coordination).resources('leases'),
      rule('get').groups(storage).resources('volumeattachments'),
      rule('create').groups(legacyGroup).resources('serviceaccounts/token'),
      rule('get', 'update', 'patch').groups(legacyGroup).resources('persistentvolumeclaims/status'),
      rule(...read).groups(storage).resources('csidrivers'),
      rule('get', 'create', 'update', 'patch', 'delete').groups(storage).resources('csinodes'),
      rule(...read).groups('node.k8s.io').resources('runtimeclasses'),
    ]),
    clusterRole('system:node-problem-detector', [
      rule('get').groups(legacyGroup).resources('nodes'),
      rule('patch').groups(legacyGroup).resources('nodes/status'),
      eventsRule(),
    ]),
    clusterRole('system:kubelet-api-admin', [
      rule(...read).groups(legacyGroup).resources('nodes'),
      rule('proxy').groups(legacyGroup).resources('nodes'),
      rule('*').groups(legacyGroup).resources('nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log'),
    ]),
    clusterRole('system:node-bootstrapper', [rule('create', 'get', 'list', 'watch').groups(certificates).resources('certificatesigningrequests')]),
    clusterRole('system:kube-aggregator', [rule(...read).groups(legacyGroup).resources('services', 'endpoints')]),
    clusterRole('system:kube-controller-manager', [
      eventsRule(),
      rule('create').groups(coordination).resources('leases'),
      rule('get', 'update').groups(coordination).resources('leases').names('kube-controller-manager'),
      rule('create').groups(legacyGroup).resources('secrets', 'serviceaccounts'),
      rule('delete').groups(legacyGroup).resources('secrets'),
      rule('get').groups(legacyGroup).resources('namespaces', 'secrets', 'serviceaccounts', 'configmaps'),
      rule('update').groups(legacyGroup).resources('secrets', 'serviceaccounts'),
      tokenReviews(),
      subjectAccessReviews(),
      rule('list', 'watch').groups('*').resources('*'),
      rule('create').groups(legacyGroup).resources('serviceaccounts/token'),
    ]),
    clusterRole('system:kube-dns', [rule('list', 'watch').groups(legacyGroup).resources('endpoints', 'services')]),
    clusterRole('system:persistent-volume-provisioner', [
      rule('get', 'list', 'watch', 'create', 'delete').groups(legacyGroup).resources('persistentvolumes'),
      rule('get', 'list', 'watch', 'update').groups(legacyGroup).resources('persistentvolumeclaims'),
      rule(...read).groups(storage).resources('storageclasses'),
      rule('watch').groups(legacyGroup).resources('events'),
      eventsRule(),
    ]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [rule('create').groups(certificates).resources('certificatesigningrequests/nodeclient')]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [
      rule('create').groups(certificates).resources('certificatesigningrequests/selfnodeclient'),
    ]),
    approver('system:certificates.k8s.io:kube-apiserver-client-approver', 'kubernetes.io/kube-apiserver-client'),
    approver('system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', 'kubernetes.io/kube-apiserver-client-kubelet'),
    approver('system:certificates.k8s.io:kubelet-serving-approver', 'kubernetes.io/kubelet-serving'),
    approver('system:certificates.k8s.io:legacy-unknown-approver', 'kubernetes.io/legacy-unknown'),
  ];
}

function schedulerRoles(): RoleObject[] {
  return [
    clusterRole('system:kube-scheduler', [
      eventsRule(),
      rule('create').groups(coordination).resources('leases'),
      rule('get', 'update').groups(coordination).resources('leases').names('kube-scheduler'),
      rule(...read).groups(legacyGroup).resources('nodes'),
      rule('get', 'list', 'watch', 'delete').groups(legacyGroup).resources('pods'),
      rule('create').groups(legacyGroup).resources('pods/binding', 'bindings'),
      rule('patch', 'update').groups(legacyGroup).resources('pods/status'),
      rule(...read).groups(legacyGroup).resources('replicationcontrollers', 'services'),
      rule(...read).groups(apps, extensions).resources('replicasets'),
      rule(...read).groups(apps).resources('statefulsets'),
      rule(...read).groups('policy').resources('poddisruptionbudgets'),
      rule(...read).groups(legacyGroup).resources('persistentvolumeclaims', 'persistentvolumes'),
      tokenReviews(),
      subjectAccessReviews(),
      rule(...read).groups(storage).resources('csinodes'),
      rule(...read).groups(legacyGroup).resources('namespaces'),
      rule(...read).groups(storage).resources('csidrivers'),
      rule(...read).groups(storage).resources('csistoragecapacities'),
    ]),
    clusterRole('system:volume-scheduler', [
      rule(...read, 'patch', 'update').groups(legacyGroup).resources('persistentvolumes'),
      rule(...read).groups(storage).resources('storageclasses'),
      rule(...read, 'patch', 'update').groups(legacyGroup).resources('persistentvolumeclaims'),
    ]),
    clusterRole('system:node-proxier', [
      rule('list', 'watch').groups(legacyGroup).resources('services', 'endpoints'),
      rule(...read).groups(legacyGroup).resources('nodes'),
      eventsRule(),
      rule('list', 'watch').groups('discovery.k8s.io').resources('endpointslices'),
    ]),
  ];
}

/** Every ClusterRole of the bootstrap policy except the controllers' (fresh objects on each call). */
export function clusterRoles(): RoleObject[] {
  return [...aggregatedRoles(), ...discoveryRoles(), ...componentRoles(), ...schedulerRoles()];
}
