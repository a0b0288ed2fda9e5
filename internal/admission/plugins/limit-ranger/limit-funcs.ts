/**
 * What LimitRanger does with one LimitRange: defaults Container requests and limits into a pod's
 * containers and init containers (recording what it set in the kubernetes.io/limit-ranger
 * annotation), and checks Container, Pod and PersistentVolumeClaim items' min, max and
 * maxLimitRequestRatio, returning every violation's message.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { Container, Pod, ResourceList } from '../pod-shared/pod-types.js';
import {
  addResourceList,
  limitRequestRatioConstraint,
  maxConstraint,
  maxRequestConstraint,
  maxResourceList,
  minConstraint,
  quantities,
  type Quantities,
} from './constraints.js';

/** The annotation LimitRanger writes on pods it defaulted. */
export const limitRangerAnnotation = 'kubernetes.io/limit-ranger';

/** One item of a LimitRange's spec.limits. */
interface LimitRangeItem {
  type?: string;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}

function items(limitRange: KubeObject): LimitRangeItem[] {
  const spec = limitRange.spec as { limits?: LimitRangeItem[] } | undefined;
  return Array.isArray(spec?.limits) ? spec.limits : [];
}

/** A resource list with key added, its keys kept sorted as kube's maps serialize. */
function withEntry(list: ResourceList | undefined, key: string, value: string | number): ResourceList {
  const all = { ...(list ?? {}), [key]: value };
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function mergeContainer(c: Container, limits: ResourceList, requests: ResourceList, kind: string, notes: string[]): void {
  const setLimits: string[] = [];
  const setRequests: string[] = [];
  const res = (c.resources ??= {});
  for (const [k, v] of Object.entries(limits)) {
    if (res.limits && k in res.limits) continue;
    res.limits = withEntry(res.limits, k, v);
    setLimits.push(k);
  }
  for (const [k, v] of Object.entries(requests)) {
    if (res.requests && k in res.requests) continue;
    res.requests = withEntry(res.requests, k, v);
    setRequests.push(k);
  }
  if (setRequests.length > 0) notes.push(`${setRequests.sort().join(', ')} request for ${kind} ${c.name}`);
  if (setLimits.length > 0) notes.push(`${setLimits.sort().join(', ')} limit for ${kind} ${c.name}`);
}

/** PodMutateLimitFunc: applies the Container items' default and defaultRequest. */
export function podMutateLimit(limitRange: KubeObject, pod: Pod): void {
  const limits: ResourceList = {};
  const requests: ResourceList = {};
  for (const item of items(limitRange)) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, item.defaultRequest ?? {});
    Object.assign(limits, item.default ?? {});
  }
  const spec = pod.spec;
  if (!spec) return;
  const notes: string[] = [];
  for (const c of spec.containers ?? []) mergeContainer(c, limits, requests, 'container', notes);
  for (const c of spec.initContainers ?? []) mergeContainer(c, limits, requests, 'init container', notes);
  if (notes.length > 0) {
    pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [limitRangerAnnotation]: `LimitRanger plugin set: ${notes.join('; ')}` };
  }
}

function checkAll(item: LimitRangeItem, type: string, request: Quantities, limit: Quantities, errs: string[]): void {
  const push = (m: string | undefined): void => void (m && errs.push(m));
  for (const [k, v] of quantities(item.min)) push(minConstraint(type, k, v, request, limit));
  for (const [k, v] of quantities(item.max)) push(maxConstraint(type, k, v, request, limit));
  for (const [k, v] of quantities(item.maxLimitRequestRatio)) push(limitRequestRatioConstraint(type, k, v, request, limit));
}

const isSidecar = (c: Container): boolean => c.restartPolicy === 'Always';

/** The pod's effective requests or limits: containers and sidecars summed, the largest init container step. */
function podTotal(pod: Pod, field: 'requests' | 'limits'): Quantities {
  const total: Quantities = new Map();
  for (const c of pod.spec?.containers ?? []) addResourceList(total, quantities(c.resources?.[field]));
  const sidecars: Quantities = new Map();
  const initMax: Quantities = new Map();
  for (const c of pod.spec?.initContainers ?? []) {
    const own = quantities(c.resources?.[field]);
    let step: Quantities;
    if (isSidecar(c)) {
      addResourceList(total, own);
      addResourceList(sidecars, own);
      step = sidecars;
    } else {
      step = new Map();
      addResourceList(step, own);
      addResourceList(step, sidecars);
    }
    maxResourceList(initMax, step);
  }
  maxResourceList(total, initMax);
  return total;
}

/** PodValidateLimitFunc: every Container item against each container and init container, every Pod item against the pod's totals. */
export function podValidateLimit(limitRange: KubeObject, pod: Pod): string[] {
  const errs: string[] = [];
  for (const item of items(limitRange)) {
    if (item.type === 'Container') {
      for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
        checkAll(item, 'Container', quantities(c.resources?.requests), quantities(c.resources?.limits), errs);
      }
    }
    if (item.type === 'Pod') checkAll(item, 'Pod', podTotal(pod, 'requests'), podTotal(pod, 'limits'), errs);
  }
  return errs;
}

/** PersistentVolumeClaimValidateLimitFunc: min and max of PersistentVolumeClaim items against the claim's requests. */
export function pvcValidateLimit(limitRange: KubeObject, pvc: KubeObject): string[] {
  const errs: string[] = [];
  const spec = pvc.spec as { resources?: { requests?: ResourceList } } | undefined;
  const requests = quantities(spec?.resources?.requests);
  for (const item of items(limitRange)) {
    if (item.type !== 'PersistentVolumeClaim') continue;
    for (const [k, v] of quantities(item.min)) {
      const m = minConstraint('PersistentVolumeClaim', k, v, requests, new Map());
      if (m) errs.push(m);
    }
    for (const [k, v] of quantities(item.max)) {
      const m = maxRequestConstraint('PersistentVolumeClaim', k, v, requests);
      if (m) errs.push(m);
    }
  }
  return errs;
}
