/**
 * The flowcontrol.apiserver.k8s.io/v1 configuration kube-apiserver 1.33 keeps in every cluster
 * (k8s.io/apiserver's flowcontrol bootstrap objects): the mandatory exempt and catch-all levels and
 * schemas, and the suggested ones. Each carries apf.kubernetes.io/autoupdate-spec: "true".
 */
import type { KubeObject } from '../../../api/meta/types.js';

/** The annotation that says whether the server keeps an object's spec at its default. */
export const autoUpdateAnnotation = 'apf.kubernetes.io/autoupdate-spec';

const apiVersion = 'flowcontrol.apiserver.k8s.io/v1';
type Json = Record<string, unknown>;

function level(name: string, spec: Json): KubeObject {
  return { apiVersion, kind: 'PriorityLevelConfiguration', metadata: { name, annotations: { [autoUpdateAnnotation]: 'true' } }, spec };
}

function queued(shares: number, lendablePercent: number, queues: number, handSize: number, queueLengthLimit: number): Json {
  return {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: shares,
      lendablePercent,
      limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit } },
    },
  };
}

function schema(name: string, level: string, matchingPrecedence: number, distinguisher: 'ByUser' | 'ByNamespace' | undefined, rules: Json[]): KubeObject {
  return {
    apiVersion,
    kind: 'FlowSchema',
    metadata: { name, annotations: { [autoUpdateAnnotation]: 'true' } },
    spec: {
      priorityLevelConfiguration: { name: level },
      matchingPrecedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules,
    },
  };
}

const groups = (...names: string[]): Json[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): Json[] => names.map((name) => ({ kind: 'User', user: { name } }));
const kubeSystemSAs = (...names: string[]): Json[] => names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { name, namespace: 'kube-system' } }));

function resourceRule(verbs: string[], apiGroups: string[], resources: string[], namespaces: string[], clusterScope: boolean): Json {
  // clusterScope is omitted when false, as the JSON of kube's objects omits it.
  return { verbs, apiGroups, resources, ...(clusterScope ? { clusterScope: true } : {}), namespaces };
}

/** Every verb on every resource and non-resource URL, for the given subjects. */
function everything(subjects: Json[]): Json {
  return {
    subjects,
    resourceRules: [resourceRule(['*'], ['*'], ['*'], ['*'], true)],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  };
}

/** The mandatory priority levels: always present, their specs kept at these values. */
export const mandatoryPriorityLevels: readonly KubeObject[] = [
  level('catch-all', { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } }),
  level('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
];

/** The mandatory flow schemas. */
export const mandatoryFlowSchemas: readonly KubeObject[] = [
  schema('exempt', 'exempt', 1, undefined, [everything(groups('system:masters'))]),
  schema('catch-all', 'catch-all', 10000, 'ByUser', [everything(groups('system:unauthenticated', 'system:authenticated'))]),
];

/** The suggested priority levels: created when missing, kept up to date only while their annotation says so. */
export const suggestedPriorityLevels: readonly KubeObject[] = [
  level('system', queued(30, 33, 64, 6, 50)),
  level('node-high', queued(40, 25, 64, 6, 50)),
  level('leader-election', queued(10, 0, 16, 4, 50)),
  level('workload-high', queued(40, 50, 128, 6, 50)),
  level('workload-low', queued(100, 90, 128, 6, 50)),
  level('global-default', queued(20, 50, 128, 6, 50)),
];

const leaseRule = resourceRule(['get', 'create', 'update'], ['coordination.k8s.io'], ['leases'], ['*'], false);

/** The suggested flow schemas. */
export const suggestedFlowSchemas: readonly KubeObject[] = [
  schema('system-nodes', 'system', 500, 'ByUser', [everything(groups('system:nodes'))]),
  schema('system-node-high', 'node-high', 400, 'ByUser', [
    {
      subjects: groups('system:nodes'),
      resourceRules: [resourceRule(['*'], [''], ['nodes', 'nodes/status'], ['*'], true), resourceRule(['*'], ['coordination.k8s.io'], ['leases'], ['*'], false)],
    },
  ]),
  schema('probes', 'exempt', 2, undefined, [
    { subjects: groups('system:unauthenticated', 'system:authenticated'), nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }] },
  ]),
  schema('system-leader-election', 'leader-election', 100, 'ByUser', [
    {
      subjects: [...users('system:kube-controller-manager', 'system:kube-scheduler'), ...kubeSystemSAs('*')],
      resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints', 'configmaps'], ['kube-system'], false), leaseRule],
    },
  ]),
  schema('endpoint-controller', 'workload-high', 150, 'ByUser', [
    {
      subjects: [...users('system:kube-controller-manager'), ...kubeSystemSAs('endpoint-controller', 'endpointslicemirroring-controller')],
      resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints'], ['*'], false)],
    },
  ]),
  schema('workload-leader-election', 'leader-election', 200, 'ByUser', [
    {
      subjects: kubeSystemSAs('*'),
      resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints', 'configmaps'], ['*'], false), leaseRule],
    },
  ]),
  schema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', [everything(users('system:kube-controller-manager'))]),
  schema('kube-scheduler', 'workload-high', 800, 'ByNamespace', [everything(users('system:kube-scheduler'))]),
  schema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', [everything(kubeSystemSAs('*'))]),
  schema('service-accounts', 'workload-low', 9000, 'ByUser', [everything(groups('system:serviceaccounts'))]),
  schema('global-default', 'global-default', 9900, 'ByUser', [everything(groups('system:unauthenticated', 'system:authenticated'))]),
];
