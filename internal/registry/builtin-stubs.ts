/**
 * Test fixtures: a minimal object of each resource added for Kubernetes 1.33 (after kube's
 * test/integration/etcd stubs), the etcd key and storage version kube uses for it, and a subset
 * of what each served version reads back (kube's defaults and conversions). Test code only.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { Storage } from '../storage/interface.js';
import { builtinResourceModules } from './builtin.js';
import type { ResourceModule } from './registration.js';

const container = { name: 'c', image: 'busybox' };
const podSpecDefaults = { dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler', securityContext: {}, terminationGracePeriodSeconds: 30 };
const caPEM = `-----BEGIN CERTIFICATE-----
MIIBBDCBt6ADAgECAgEAMAUGAytlcDAQMQ4wDAYDVQQDEwVyb290MTAiGA8wMDAx
MDEwMTAwMDAwMFoYDzAwMDEwMTAxMDAwMDAwWjAQMQ4wDAYDVQQDEwVyb290MTAq
MAUGAytlcAMhAF2MoFeGa97gK2NGT1h6p1/a1GlMXAXbcjI/OShyIobPozIwMDAP
BgNVHRMBAf8EBTADAQH/MB0GA1UdDgQWBBTWDdK2CNQiHqRjPaAWYPPtIykQgjAF
BgMrZXADQQCtom9WGl7m2SAa4tXM9Soo/mbInBsRhn187BMoqTAHInHchKup5/3y
l1tYJSZZsEXnXrCvw2qLCBNif6+2YYgE
-----END CERTIFICATE-----
`;
const csrPEM = `-----BEGIN CERTIFICATE REQUEST-----
MIGTMEcCAQAwFDESMBAGA1UEAwwJZXhhbXBsZS0xMCowBQYDK2VwAyEA7zUxf153
4nf4WcgFzp4QFbwmDL1UmIn5KnIAPW7ww6ugADAFBgMrZXADQQBBBsG1HUvppMjh
0q2zAJcg2CBeYPZW5WCFEe8saMxPIAXQdWbrfxXoF3pVX7usjhfSwct1rNF+Zsoi
+mIgLqEC
-----END CERTIFICATE REQUEST-----
`;

/** One resource's stub: how to create it and what kube would store and serve. */
export interface ResourceStub {
  readonly module: ResourceModule;
  /** The version to create in (the first registration's when absent). */
  readonly version?: string;
  readonly obj: KubeObject;
  /** The etcd key under the prefix (namespaced objects are created in "ns"). */
  readonly key: string;
  /** The apiVersion the object is stored with. */
  readonly storedAs: string;
  /** A subset the read-back object must contain, per version read. */
  readonly expect: Readonly<Record<string, unknown>>;
}

/** The built-in module that registers resource. */
function moduleFor(resource: string): ResourceModule {
  const deps = { storage: {} as Storage, serviceClusterIPRange: '10.0.0.0/24' };
  const m = builtinResourceModules.find((x) => x(deps).some((r) => r.resource === resource));
  if (!m) throw new Error(`no module for ${resource}`);
  return m;
}

/** A minimal object of every resource added for 1.33, keyed by resource, with what kube stores and serves. */
export const resourceStubs: Record<string, ResourceStub> = {
  podtemplates: {
    module: moduleFor('podtemplates'),
    obj: { metadata: { name: 'pt1name' }, template: { metadata: { labels: { pt: '01' } }, spec: { containers: [container] } } },
    key: '/podtemplates/ns/pt1name',
    storedAs: 'v1',
    expect: { v1: { metadata: { generation: 1 }, template: { spec: podSpecDefaults } } },
  },
  replicationcontrollers: {
    module: moduleFor('replicationcontrollers'),
    obj: { metadata: { name: 'rc1' }, spec: { template: { metadata: { labels: { new: 'stuff' } }, spec: { containers: [container] } } } },
    key: '/controllers/ns/rc1',
    storedAs: 'v1',
    expect: { v1: { metadata: { labels: { new: 'stuff' }, generation: 1 }, spec: { replicas: 1, selector: { new: 'stuff' }, template: { spec: podSpecDefaults } }, status: { replicas: 0 } } },
  },
  resourcequotas: {
    module: moduleFor('resourcequotas'),
    obj: { metadata: { name: 'rq1name' }, spec: { hard: { cpu: '5M' } }, status: { used: { cpu: '1' } } },
    key: '/resourcequotas/ns/rq1name',
    storedAs: 'v1',
    expect: { v1: { spec: { hard: { cpu: '5M' } }, status: {} } },
  },
  limitranges: {
    module: moduleFor('limitranges'),
    obj: { metadata: { name: 'lr1name' }, spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { memory: '1Mi' } }] } },
    key: '/limitranges/ns/lr1name',
    storedAs: 'v1',
    expect: { v1: { spec: { limits: [{ type: 'Container', max: { cpu: '2' }, default: { cpu: '2' }, defaultRequest: { cpu: '2', memory: '1Mi' } }] } } },
  },
  persistentvolumes: {
    module: moduleFor('persistentvolumes'),
    obj: { metadata: { name: 'pv1name' }, spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '3M' }, hostPath: { path: '/tmp/test/' } } },
    key: '/persistentvolumes/pv1name',
    storedAs: 'v1',
    expect: { v1: { spec: { persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem', hostPath: { path: '/tmp/test/', type: '' } }, status: { phase: 'Pending' } } },
  },
  persistentvolumeclaims: {
    module: moduleFor('persistentvolumeclaims'),
    obj: { metadata: { name: 'pvc1' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2M' } } } },
    key: '/persistentvolumeclaims/ns/pvc1',
    storedAs: 'v1',
    expect: { v1: { spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } } },
  },
  daemonsets: {
    module: moduleFor('daemonsets'),
    obj: { metadata: { name: 'ds6' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [container] } } } },
    key: '/daemonsets/ns/ds6',
    storedAs: 'apps/v1',
    expect: {
      v1: {
        metadata: { generation: 1, annotations: { 'deprecated.daemonset.template.generation': '1' } },
        spec: { revisionHistoryLimit: 10, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, template: { spec: podSpecDefaults } },
        status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 },
      },
    },
  },
  statefulsets: {
    module: moduleFor('statefulsets'),
    obj: {
      metadata: { name: 'ss3' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [container] } },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      },
    },
    key: '/statefulsets/ns/ss3',
    storedAs: 'apps/v1',
    expect: {
      v1: {
        spec: {
          replicas: 1,
          podManagementPolicy: 'OrderedReady',
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
          persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
          revisionHistoryLimit: 10,
          volumeClaimTemplates: [{ apiVersion: 'v1', kind: 'PersistentVolumeClaim', spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } }],
        },
        status: { availableReplicas: 0, replicas: 0 },
      },
    },
  },
  replicasets: {
    module: moduleFor('replicasets'),
    obj: { metadata: { name: 'rs3' }, spec: { selector: { matchLabels: { g: 'h' } }, template: { metadata: { labels: { g: 'h' } }, spec: { containers: [container] } } } },
    key: '/replicasets/ns/rs3',
    storedAs: 'apps/v1',
    expect: { v1: { spec: { replicas: 1, template: { spec: podSpecDefaults } }, status: { replicas: 0 } } },
  },
  controllerrevisions: {
    module: moduleFor('controllerrevisions'),
    obj: { metadata: { name: 'crs3' }, data: { name: 'abc' }, revision: 0 },
    key: '/controllerrevisions/ns/crs3',
    storedAs: 'apps/v1',
    expect: { v1: { data: { name: 'abc' } } },
  },
  cronjobs: {
    module: moduleFor('cronjobs'),
    obj: { metadata: { name: 'cjv1' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { containers: [container], restartPolicy: 'Never' } } } } } },
    key: '/cronjobs/ns/cjv1',
    storedAs: 'batch/v1',
    expect: {
      v1: {
        spec: { concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, jobTemplate: { spec: { template: { spec: { dnsPolicy: 'ClusterFirst' } } } } },
        status: {},
      },
    },
  },
  certificatesigningrequests: {
    module: moduleFor('certificatesigningrequests'),
    obj: { metadata: { name: 'csr2' }, spec: { signerName: 'example.com/signer', usages: ['any'], request: Buffer.from(csrPEM).toString('base64'), username: 'forged' } },
    key: '/certificatesigningrequests/csr2',
    storedAs: 'certificates.k8s.io/v1',
    expect: { v1: { spec: { username: 'tester', groups: ['system:authenticated'] }, status: {} } },
  },
  clustertrustbundles: {
    module: moduleFor('clustertrustbundles'),
    version: 'v1alpha1',
    obj: { metadata: { name: 'example.com:signer:abc' }, spec: { signerName: 'example.com/signer', trustBundle: caPEM } },
    key: '/clustertrustbundles/example.com:signer:abc',
    storedAs: 'certificates.k8s.io/v1beta1',
    expect: { v1beta1: { spec: { signerName: 'example.com/signer' } }, v1alpha1: { spec: { signerName: 'example.com/signer' } } },
  },
  leasecandidates: {
    module: moduleFor('leasecandidates'),
    version: 'v1alpha2',
    obj: { metadata: { name: 'lc' }, spec: { leaseName: 'lease', binaryVersion: '0.1.0', emulationVersion: '0.1.0', strategy: 'OldestEmulationVersion' } },
    key: '/leasecandidates/ns/lc',
    storedAs: 'coordination.k8s.io/v1beta1',
    expect: { v1beta1: { spec: { leaseName: 'lease' } }, v1alpha2: { spec: { leaseName: 'lease' } } },
  },
  endpointslices: {
    module: moduleFor('endpointslices'),
    obj: { metadata: { name: 'slicev1' }, addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }], ports: [{ port: 80 }] },
    key: '/endpointslices/ns/slicev1',
    storedAs: 'discovery.k8s.io/v1',
    expect: { v1: { metadata: { generation: 1 }, ports: [{ port: 80, name: '', protocol: 'TCP' }] } },
  },
  ingresses: {
    module: moduleFor('ingresses'),
    obj: { metadata: { name: 'ingress3' }, spec: { defaultBackend: { service: { name: 'service', port: { number: 5000 } } } } },
    key: '/ingress/ns/ingress3',
    storedAs: 'networking.k8s.io/v1',
    expect: { v1: { metadata: { generation: 1 }, status: { loadBalancer: {} } } },
  },
  ingressclasses: {
    module: moduleFor('ingressclasses'),
    obj: { metadata: { name: 'ingressclass3' }, spec: { controller: 'example.com/controller', parameters: { kind: 'K', name: 'n' } } },
    key: '/ingressclasses/ingressclass3',
    storedAs: 'networking.k8s.io/v1',
    expect: { v1: { spec: { parameters: { scope: 'Cluster' } } } },
  },
  networkpolicies: {
    module: moduleFor('networkpolicies'),
    obj: { metadata: { name: 'np2' }, spec: { podSelector: { matchLabels: { e: 'f' } }, egress: [{ ports: [{ port: 53 }] }] } },
    key: '/networkpolicies/ns/np2',
    storedAs: 'networking.k8s.io/v1',
    expect: { v1: { spec: { policyTypes: ['Ingress', 'Egress'], egress: [{ ports: [{ port: 53, protocol: 'TCP' }] }] } } },
  },
  ipaddresses: {
    module: moduleFor('ipaddresses'),
    version: 'v1',
    obj: { metadata: { name: '192.168.2.3' }, spec: { parentRef: { resource: 'services', name: 'test', namespace: 'ns' } } },
    key: '/ipaddresses/192.168.2.3',
    storedAs: 'networking.k8s.io/v1beta1',
    expect: { v1: { spec: { parentRef: { name: 'test' } } }, v1beta1: { spec: { parentRef: { name: 'test' } } } },
  },
  servicecidrs: {
    module: moduleFor('servicecidrs'),
    version: 'v1',
    obj: { metadata: { name: 'range-b2' }, spec: { cidrs: ['192.168.0.0/16', 'fd00:1::/120'] } },
    key: '/servicecidrs/range-b2',
    storedAs: 'networking.k8s.io/v1beta1',
    expect: { v1: { spec: { cidrs: ['192.168.0.0/16', 'fd00:1::/120'] }, status: {} }, v1beta1: { status: {} } },
  },
  poddisruptionbudgets: {
    module: moduleFor('poddisruptionbudgets'),
    obj: { metadata: { name: 'pdbv1' }, spec: { selector: { matchLabels: { anokkey: 'anokvalue' } } } },
    key: '/poddisruptionbudgets/ns/pdbv1',
    storedAs: 'policy/v1',
    expect: { v1: { metadata: { generation: 1 }, status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 } } },
  },
  flowschemas: {
    module: moduleFor('flowschemas'),
    obj: { metadata: { name: 'fs-3' }, spec: { priorityLevelConfiguration: { name: 'name1' } } },
    key: '/flowschemas/fs-3',
    storedAs: 'flowcontrol.apiserver.k8s.io/v1',
    expect: { v1: { spec: { matchingPrecedence: 1000 }, status: {} } },
  },
  prioritylevelconfigurations: {
    module: moduleFor('prioritylevelconfigurations'),
    obj: { metadata: { name: 'conf5' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } } },
    key: '/prioritylevelconfigurations/conf5',
    storedAs: 'flowcontrol.apiserver.k8s.io/v1',
    expect: { v1: { spec: { limited: { nominalConcurrencyShares: 30, lendablePercent: 0, limitResponse: { queuing: { handSize: 8, queues: 64, queueLengthLimit: 50 } } } } } },
  },
  volumeattachments: {
    module: moduleFor('volumeattachments'),
    obj: { metadata: { name: 'va3' }, spec: { attacher: 'gce', nodeName: 'localhost', source: { persistentVolumeName: 'pv3' } } },
    key: '/volumeattachments/va3',
    storedAs: 'storage.k8s.io/v1',
    expect: { v1: { status: { attached: false } } },
  },
  volumeattributesclasses: {
    module: moduleFor('volumeattributesclasses'),
    version: 'v1alpha1',
    obj: { metadata: { name: 'vac2' }, driverName: 'example.com/driver', parameters: { foo: 'bar' } },
    key: '/volumeattributesclasses/vac2',
    storedAs: 'storage.k8s.io/v1beta1',
    expect: { v1beta1: { driverName: 'example.com/driver' }, v1alpha1: { parameters: { foo: 'bar' } } },
  },
  storageclasses: {
    module: moduleFor('storageclasses'),
    obj: { metadata: { name: 'sc2' }, provisioner: 'aws' },
    key: '/storageclasses/sc2',
    storedAs: 'storage.k8s.io/v1',
    expect: { v1: { reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' } },
  },
  csistoragecapacities: {
    module: moduleFor('csistoragecapacities'),
    obj: { metadata: { name: 'csc-12345-3' }, storageClassName: 'sc1' },
    key: '/csistoragecapacities/ns/csc-12345-3',
    storedAs: 'storage.k8s.io/v1',
    expect: { v1: { storageClassName: 'sc1' } },
  },
  csinodes: {
    module: moduleFor('csinodes'),
    obj: { metadata: { name: 'csini2' }, spec: { drivers: [{ name: 'test-driver', nodeID: 'localhost', topologyKeys: ['company.com/zone1'] }] } },
    key: '/csinodes/csini2',
    storedAs: 'storage.k8s.io/v1',
    expect: { v1: { spec: { drivers: [{ name: 'test-driver' }] } } },
  },
  csidrivers: {
    module: moduleFor('csidrivers'),
    obj: { metadata: { name: 'csid2' }, spec: { podInfoOnMount: true } },
    key: '/csidrivers/csid2',
    storedAs: 'storage.k8s.io/v1',
    expect: {
      v1: {
        spec: {
          attachRequired: true,
          podInfoOnMount: true,
          requiresRepublish: false,
          storageCapacity: false,
          fsGroupPolicy: 'ReadWriteOnceWithFSType',
          volumeLifecycleModes: ['Persistent'],
          seLinuxMount: false,
        },
      },
    },
  },
  roles: {
    module: moduleFor('roles'),
    obj: { metadata: { name: 'role3' }, rules: [{ apiGroups: ['v1'], resources: ['events'], verbs: ['watch'] }] },
    key: '/roles/ns/role3',
    storedAs: 'rbac.authorization.k8s.io/v1',
    expect: { v1: { rules: [{ verbs: ['watch'] }] } },
  },
  clusterroles: {
    module: moduleFor('clusterroles'),
    obj: { metadata: { name: 'crole3' }, rules: [{ nonResourceURLs: ['/version'], verbs: ['get'] }] },
    key: '/clusterroles/crole3',
    storedAs: 'rbac.authorization.k8s.io/v1',
    expect: { v1: { rules: [{ nonResourceURLs: ['/version'] }] } },
  },
  rolebindings: {
    module: moduleFor('rolebindings'),
    obj: { metadata: { name: 'roleb3' }, roleRef: { kind: 'ClusterRole', name: 'somecr' }, subjects: [{ kind: 'Group', name: 'system:authenticated' }, { kind: 'ServiceAccount', name: 'default' }] },
    key: '/rolebindings/ns/roleb3',
    storedAs: 'rbac.authorization.k8s.io/v1',
    expect: {
      v1: {
        roleRef: { apiGroup: 'rbac.authorization.k8s.io' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io' }, { apiGroup: '' }],
      },
    },
  },
  clusterrolebindings: {
    module: moduleFor('clusterrolebindings'),
    obj: { metadata: { name: 'croleb3' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'somecr' }, subjects: [{ kind: 'User', name: 'alice' }] },
    key: '/clusterrolebindings/croleb3',
    storedAs: 'rbac.authorization.k8s.io/v1',
    expect: { v1: { subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }] } },
  },
  validatingwebhookconfigurations: {
    module: moduleFor('validatingwebhookconfigurations'),
    obj: {
      metadata: { name: 'hook2' },
      webhooks: [
        {
          name: 'externaladmissionhook.k8s.io',
          clientConfig: { service: { namespace: 'ns', name: 'n' } },
          rules: [{ operations: ['CREATE'], apiGroups: ['group'], apiVersions: ['version'], resources: ['resource'] }],
          sideEffects: 'None',
          admissionReviewVersions: ['v1beta1'],
        },
      ],
    },
    key: '/validatingwebhookconfigurations/hook2',
    storedAs: 'admissionregistration.k8s.io/v1',
    expect: {
      v1: {
        metadata: { generation: 1 },
        webhooks: [
          {
            failurePolicy: 'Fail',
            matchPolicy: 'Equivalent',
            namespaceSelector: {},
            objectSelector: {},
            timeoutSeconds: 10,
            clientConfig: { service: { port: 443 } },
            rules: [{ scope: '*' }],
          },
        ],
      },
    },
  },
  mutatingwebhookconfigurations: {
    module: moduleFor('mutatingwebhookconfigurations'),
    obj: {
      metadata: { name: 'hook2' },
      webhooks: [{ name: 'externaladmissionhook.k8s.io', clientConfig: { url: 'https://example.com/hook' }, sideEffects: 'None', admissionReviewVersions: ['v1'] }],
    },
    key: '/mutatingwebhookconfigurations/hook2',
    storedAs: 'admissionregistration.k8s.io/v1',
    expect: { v1: { webhooks: [{ reinvocationPolicy: 'Never', failurePolicy: 'Fail' }] } },
  },
  validatingadmissionpolicies: {
    module: moduleFor('validatingadmissionpolicies'),
    version: 'v1beta1',
    obj: {
      metadata: { name: 'vap1' },
      spec: {
        matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }] },
        validations: [{ expression: 'object.spec.replicas <= 5' }],
      },
    },
    key: '/validatingadmissionpolicies/vap1',
    storedAs: 'admissionregistration.k8s.io/v1',
    expect: {
      v1: { spec: { failurePolicy: 'Fail', matchConstraints: { matchPolicy: 'Equivalent', resourceRules: [{ scope: '*' }] } }, status: {} },
      v1beta1: { spec: { failurePolicy: 'Fail' } },
    },
  },
  validatingadmissionpolicybindings: {
    module: moduleFor('validatingadmissionpolicybindings'),
    obj: { metadata: { name: 'pb1' }, spec: { policyName: 'replicalimit-policy.example.com', paramRef: { name: 'replica-limit-test.example.com' }, validationActions: ['Deny'] } },
    key: '/validatingadmissionpolicybindings/pb1',
    storedAs: 'admissionregistration.k8s.io/v1',
    expect: { v1: { spec: { paramRef: { parameterNotFoundAction: 'Deny' } } }, v1beta1: { spec: { policyName: 'replicalimit-policy.example.com' } } },
  },
  mutatingadmissionpolicies: {
    module: moduleFor('mutatingadmissionpolicies'),
    obj: {
      metadata: { name: 'map1' },
      spec: {
        reinvocationPolicy: 'IfNeeded',
        matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] },
        mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{}' } }],
      },
    },
    key: '/mutatingadmissionpolicies/map1',
    storedAs: 'admissionregistration.k8s.io/v1alpha1',
    expect: { v1alpha1: { spec: { failurePolicy: 'Fail' } } },
  },
  mutatingadmissionpolicybindings: {
    module: moduleFor('mutatingadmissionpolicybindings'),
    obj: { metadata: { name: 'mpb1' }, spec: { policyName: 'replicalimit-policy.example.com', paramRef: { name: 'x', parameterNotFoundAction: 'Allow' } } },
    key: '/mutatingadmissionpolicybindings/mpb1',
    storedAs: 'admissionregistration.k8s.io/v1alpha1',
    expect: { v1alpha1: { spec: { paramRef: { parameterNotFoundAction: 'Allow' } } } },
  },
  priorityclasses: {
    module: moduleFor('priorityclasses'),
    obj: { metadata: { name: 'pc3' }, value: 1000 },
    key: '/priorityclasses/pc3',
    storedAs: 'scheduling.k8s.io/v1',
    expect: { v1: { value: 1000, preemptionPolicy: 'PreemptLowerPriority' } },
  },
  apiservices: {
    module: moduleFor('apiservices'),
    obj: { metadata: { name: 'as2.foo.com' }, spec: { group: 'foo.com', version: 'as2', groupPriorityMinimum: 100, versionPriority: 10, service: { namespace: 'ns', name: 's' } } },
    key: '/apiregistration.k8s.io/apiservices/as2.foo.com',
    storedAs: 'apiregistration.k8s.io/v1',
    expect: { v1: { spec: { service: { port: 443 } }, status: {} } },
  },
  runtimeclasses: {
    module: moduleFor('runtimeclasses'),
    obj: { metadata: { name: 'rc3' }, handler: 'h3' },
    key: '/runtimeclasses/rc3',
    storedAs: 'node.k8s.io/v1',
    expect: { v1: { handler: 'h3' } },
  },
  storageversions: {
    module: moduleFor('storageversions'),
    obj: { metadata: { name: 'sv1.test' }, spec: {} },
    key: '/storageversions/sv1.test',
    storedAs: 'internal.apiserver.k8s.io/v1alpha1',
    expect: { v1alpha1: { status: {} } },
  },
  storageversionmigrations: {
    module: moduleFor('storageversionmigrations'),
    obj: { metadata: { name: 'test-migration' }, spec: { resource: { group: 'test-group', version: 'v1', resource: 'test-resource' } } },
    key: '/storageversionmigrations/test-migration',
    storedAs: 'storagemigration.k8s.io/v1alpha1',
    expect: { v1alpha1: { status: {} } },
  },
  devicetaintrules: {
    module: moduleFor('devicetaintrules'),
    obj: { metadata: { name: 'taint1name' }, spec: { taint: { key: 'example.com/taintkey', value: 'taintvalue', effect: 'NoSchedule' } } },
    key: '/devicetaintrules/taint1name',
    storedAs: 'resource.k8s.io/v1alpha3',
    expect: { v1alpha3: { metadata: { generation: 1 }, spec: { taint: { key: 'example.com/taintkey' } } } },
  },
  deviceclasses: {
    module: moduleFor('deviceclasses'),
    version: 'v1beta2',
    obj: { metadata: { name: 'class3name' } },
    key: '/deviceclasses/class3name',
    storedAs: 'resource.k8s.io/v1beta1',
    expect: { v1beta2: { metadata: { generation: 1 } }, v1beta1: {}, v1alpha3: {} },
  },
  resourceclaims: {
    module: moduleFor('resourceclaims'),
    version: 'v1beta2',
    obj: { metadata: { name: 'claim3name' }, spec: { devices: { requests: [{ name: 'req-0', exactly: { deviceClassName: 'example-class' } }] } } },
    key: '/resourceclaims/ns/claim3name',
    storedAs: 'resource.k8s.io/v1beta1',
    expect: {
      v1beta2: { spec: { devices: { requests: [{ name: 'req-0', exactly: { deviceClassName: 'example-class', allocationMode: 'ExactCount', count: 1 } }] } }, status: {} },
      v1beta1: { spec: { devices: { requests: [{ name: 'req-0', deviceClassName: 'example-class', allocationMode: 'ExactCount', count: 1 }] } } },
      v1alpha3: { spec: { devices: { requests: [{ name: 'req-0', deviceClassName: 'example-class' }] } } },
    },
  },
  resourceclaimtemplates: {
    module: moduleFor('resourceclaimtemplates'),
    version: 'v1beta1',
    obj: { metadata: { name: 'claimtemplate2name' }, spec: { spec: { devices: { requests: [{ name: 'req-0', deviceClassName: 'example-class', allocationMode: 'All' }] } } } },
    key: '/resourceclaimtemplates/ns/claimtemplate2name',
    storedAs: 'resource.k8s.io/v1beta1',
    expect: {
      v1beta2: { spec: { spec: { devices: { requests: [{ name: 'req-0', exactly: { deviceClassName: 'example-class', allocationMode: 'All' } }] } } } },
      v1beta1: { spec: { spec: { devices: { requests: [{ allocationMode: 'All' }] } } } },
    },
  },
  resourceslices: {
    module: moduleFor('resourceslices'),
    version: 'v1alpha3',
    obj: {
      metadata: { name: 'node3slice' },
      spec: { nodeName: 'worker1', driver: 'dra.example.com', pool: { name: 'worker1', resourceSliceCount: 1 }, devices: [{ name: 'gpu-0', basic: { capacity: { memory: '8Gi' } } }] },
    },
    key: '/resourceslices/node3slice',
    storedAs: 'resource.k8s.io/v1beta1',
    expect: {
      v1alpha3: { spec: { devices: [{ name: 'gpu-0', basic: { capacity: { memory: '8Gi' } } }] } },
      v1beta1: { spec: { devices: [{ name: 'gpu-0', basic: { capacity: { memory: { value: '8Gi' } } } }] } },
      v1beta2: { spec: { devices: [{ name: 'gpu-0', capacity: { memory: { value: '8Gi' } } }] } },
    },
  },
  customresourcedefinitions: {
    module: moduleFor('customresourcedefinitions'),
    obj: {
      metadata: { name: 'openshiftwebconsoleconfigs.webconsole2.operator.openshift.io' },
      spec: {
        scope: 'Cluster',
        group: 'webconsole2.operator.openshift.io',
        versions: [{ name: 'v1alpha1', storage: true, served: true, schema: { openAPIV3Schema: { type: 'object' } }, additionalPrinterColumns: [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }] }],
        names: { kind: 'OpenShiftWebConsoleConfig', plural: 'openshiftwebconsoleconfigs' },
      },
    },
    key: '/apiextensions.k8s.io/customresourcedefinitions/openshiftwebconsoleconfigs.webconsole2.operator.openshift.io',
    storedAs: 'apiextensions.k8s.io/v1beta1',
    expect: {
      v1: {
        metadata: { generation: 1 },
        spec: {
          names: { singular: 'openshiftwebconsoleconfig', listKind: 'OpenShiftWebConsoleConfigList' },
          conversion: { strategy: 'None' },
          versions: [{ name: 'v1alpha1', schema: { openAPIV3Schema: { type: 'object' } }, additionalPrinterColumns: [{ jsonPath: '.metadata.creationTimestamp' }] }],
        },
        status: { acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1alpha1'] },
      },
    },
  },
};
