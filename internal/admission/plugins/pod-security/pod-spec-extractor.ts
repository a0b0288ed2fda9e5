/**
 * Which resources carry a pod spec and where (kube's DefaultPodSpecExtractor): pods themselves,
 * and the pod templates of podtemplates, replicationcontrollers, replicasets, deployments,
 * statefulsets, daemonsets, jobs and cronjobs.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { PodMetadata, PodSpec } from './pod-types.js';

/** A pod's, or a pod template's, metadata and spec. */
export interface ExtractedPod {
  readonly meta: PodMetadata;
  readonly spec: PodSpec;
}

type Path = readonly string[];

// Where each resource keeps its template. A Go struct always has its embedded template (zero
// when absent); only a ReplicationController's is a pointer that may be nil.
const templatePaths: ReadonlyMap<string, { path: Path; optional: boolean }> = new Map([
  ['/podtemplates', { path: ['template'], optional: false }],
  ['/replicationcontrollers', { path: ['spec', 'template'], optional: true }],
  ['apps/replicasets', { path: ['spec', 'template'], optional: false }],
  ['apps/deployments', { path: ['spec', 'template'], optional: false }],
  ['apps/statefulsets', { path: ['spec', 'template'], optional: false }],
  ['apps/daemonsets', { path: ['spec', 'template'], optional: false }],
  ['batch/jobs', { path: ['spec', 'template'], optional: false }],
  ['batch/cronjobs', { path: ['spec', 'jobTemplate', 'spec', 'template'], optional: false }],
]);

/** Whether group/resource is a pod-template-bearing resource (not pods). Allocation-free for others. */
export function hasPodTemplate(group: string, resource: string): boolean {
  switch (resource) {
    case 'podtemplates':
    case 'replicationcontrollers':
      return group === '';
    case 'replicasets':
    case 'deployments':
    case 'statefulsets':
    case 'daemonsets':
      return group === 'apps';
    case 'jobs':
    case 'cronjobs':
      return group === 'batch';
    default:
      return false;
  }
}

const asObject = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** The pod template of obj (a resource for which hasPodTemplate is true); undefined when it has none. */
export function extractPodTemplate(group: string, resource: string, obj: KubeObject): ExtractedPod | undefined {
  const where = templatePaths.get(`${group}/${resource}`);
  if (!where) return undefined;
  let cur: Record<string, unknown> | undefined = obj;
  for (const key of where.path) {
    cur = asObject(cur?.[key]);
    if (!cur) break;
  }
  if (!cur) return where.optional ? undefined : { meta: {}, spec: {} };
  return { meta: (asObject(cur.metadata) ?? {}) as PodMetadata, spec: (asObject(cur.spec) ?? {}) as PodSpec };
}

/** A pod's own metadata and spec. */
export function extractPod(obj: KubeObject): ExtractedPod {
  return { meta: obj.metadata as PodMetadata, spec: (asObject(obj.spec) ?? {}) as PodSpec };
}
