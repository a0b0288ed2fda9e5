/**
 * A pod's effective requests and limits (kube's pkg/api/v1/resource PodRequests / PodLimits): the
 * sum of its containers, at least the largest init container (restartable init containers, the
 * sidecars, run beside the others and add up), plus the pod overhead.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { Quantity } from '../validation/quantity.js';
import { add, resourceListFromJSON, type ResourceList } from './resource-list.js';

/** The container fields these sums read. */
interface ContainerLike {
  name?: string;
  restartPolicy?: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

/** The pod spec fields quota reads. */
export interface PodSpecLike {
  containers?: ContainerLike[];
  initContainers?: ContainerLike[];
  overhead?: Record<string, string>;
  activeDeadlineSeconds?: number;
  priorityClassName?: string;
  affinity?: Record<string, unknown>;
}

/** The pod's spec (an empty one when missing). */
export function podSpec(pod: KubeObject): PodSpecLike {
  return ((pod as { spec?: PodSpecLike }).spec ?? {}) as PodSpecLike;
}

function maxInto(target: Map<string, Quantity>, other: ResourceList): void {
  for (const [k, v] of other) {
    const cur = target.get(k);
    if (!cur || v.cmp(cur) > 0) target.set(k, v);
  }
}

function effective(pod: KubeObject, pick: (c: ContainerLike) => Record<string, string> | undefined): Map<string, Quantity> {
  const spec = podSpec(pod);
  let total = new Map<string, Quantity>();
  for (const c of spec.containers ?? []) total = add(total, resourceListFromJSON(pick(c)));
  let sidecars: ResourceList = new Map();
  const init = new Map<string, Quantity>();
  for (const c of spec.initContainers ?? []) {
    const own = resourceListFromJSON(pick(c));
    let during: ResourceList;
    if (c.restartPolicy === 'Always') {
      total = add(total, own);
      sidecars = add(sidecars, own);
      during = sidecars;
    } else {
      during = add(own, sidecars);
    }
    maxInto(init, during);
  }
  maxInto(total, init);
  return total;
}

/** PodRequests: the pod's effective requests, with the overhead added. */
export function podRequests(pod: KubeObject): Map<string, Quantity> {
  const reqs = effective(pod, (c) => c.resources?.requests);
  const overhead = podSpec(pod).overhead;
  return overhead ? add(reqs, resourceListFromJSON(overhead)) : reqs;
}

/** PodLimits: the pod's effective limits, with the overhead added to the resources that have a limit. */
export function podLimits(pod: KubeObject): Map<string, Quantity> {
  const limits = effective(pod, (c) => c.resources?.limits);
  const overhead = podSpec(pod).overhead;
  if (overhead) {
    for (const [k, v] of resourceListFromJSON(overhead)) {
      const cur = limits.get(k);
      if (cur) limits.set(k, cur.add(v));
    }
  }
  return limits;
}

/** Every container of the pod, init containers included (the ones quota constrains). */
export function allContainers(pod: KubeObject): ContainerLike[] {
  const spec = podSpec(pod);
  return [...(spec.containers ?? []), ...(spec.initContainers ?? [])];
}
