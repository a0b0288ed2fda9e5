/**
 * The persistentvolumeclaims quota evaluator (kube's evaluator/core/persistent_volume_claims.go):
 * persistentvolumeclaims, count/persistentvolumeclaims and requests.storage, each also per storage
 * class as <class>.storageclass.storage.k8s.io/<resource>. Storage is the larger of the request and
 * status.allocatedResources, rounded up to whole bytes.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { Quantity } from '../validation/quantity.js';
import type { QuotaEvaluator } from './interface.js';
import { count, resourceListFromJSON } from './resource-list.js';

const pvcResources = ['persistentvolumeclaims', 'requests.storage'];
const storageClassSuffix = '.storageclass.storage.k8s.io/';
const betaStorageClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

interface PvcLike extends KubeObject {
  spec?: { storageClassName?: string; resources?: { requests?: Record<string, string> } };
  status?: { allocatedResources?: Record<string, string> };
}

/** GetPersistentVolumeClaimClass: the beta annotation first, then spec.storageClassName. */
export function claimClass(pvc: KubeObject): string {
  const beta = pvc.metadata.annotations?.[betaStorageClassAnnotation];
  if (beta !== undefined) return beta;
  return (pvc as PvcLike).spec?.storageClassName ?? '';
}

function wholeBytes(q: Quantity): Quantity {
  return q.roundUp(0).quantity;
}

function storageUsage(pvc: PvcLike): Quantity | undefined {
  const request = resourceListFromJSON(pvc.spec?.resources?.requests).get('storage');
  let result = request ? wholeBytes(request) : undefined;
  const allocated = resourceListFromJSON(pvc.status?.allocatedResources).get('storage');
  if (result && allocated && allocated.cmp(result) > 0) result = wholeBytes(allocated);
  return result;
}

/** The allocated storage a status update changed (kube's RequiresQuotaReplenish). */
export function requiresQuotaReplenish(pvc: KubeObject, old: KubeObject): boolean {
  const a = resourceListFromJSON((pvc as PvcLike).status?.allocatedResources).get('storage');
  const b = resourceListFromJSON((old as PvcLike).status?.allocatedResources).get('storage');
  if (!a || !b) return Boolean(a) !== Boolean(b);
  return a.cmp(b) !== 0;
}

/** The persistentvolumeclaims evaluator. */
export function newPersistentVolumeClaimEvaluator(): QuotaEvaluator {
  return {
    group: '',
    resource: 'persistentvolumeclaims',
    scoped: false,
    handles: (attrs) => attrs.operation === 'CREATE' || attrs.operation === 'UPDATE',
    matchingResources(input) {
      return input.filter(
        (r) => r === 'count/persistentvolumeclaims' || pvcResources.includes(r) || pvcResources.some((p) => r.endsWith(`${storageClassSuffix}${p}`)),
      );
    },
    matchesScope: () => false,
    constraints: () => undefined,
    usage(obj) {
      const pvc = obj as PvcLike;
      const out = new Map<string, Quantity>([
        ['persistentvolumeclaims', count(1)],
        ['count/persistentvolumeclaims', count(1)],
      ]);
      const cls = claimClass(pvc);
      if (cls) out.set(`${cls}${storageClassSuffix}persistentvolumeclaims`, count(1));
      const storage = storageUsage(pvc);
      if (storage) {
        out.set('requests.storage', storage);
        if (cls) out.set(`${cls}${storageClassSuffix}requests.storage`, storage);
      }
      return out;
    },
  };
}
