/**
 * kube's GetPodQOS, as far as PodTolerationRestriction needs it: whether a pod is BestEffort (the
 * status's qosClass when set, else no container or init container requesting or limiting cpu or
 * memory above zero).
 */
import { quantities } from '../limit-ranger/constraints.js';
import type { Pod } from '../pod-shared/pod-types.js';

const qosResources = ['cpu', 'memory'];

/** Whether the pod's QoS class is BestEffort. */
export function isBestEffort(pod: Pod): boolean {
  const declared = (pod.status as { qosClass?: string } | undefined)?.qosClass;
  if (declared) return declared === 'BestEffort';
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    for (const list of [c.resources?.requests, c.resources?.limits]) {
      const q = quantities(list);
      for (const r of qosResources) if ((q.get(r)?.sign() ?? 0) > 0) return false;
    }
  }
  return true;
}
