/**
 * kube's IsOnlyMutatingGCFields: whether an update changes nothing but what the garbage collector
 * writes (owner references and finalizers; selfLink and managedFields are ignored too). Such
 * updates of RBAC objects skip the escalation check, so the collector can always finish deleting.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { semanticEqual } from '../../core/shared/semantic-equal.js';

/** True when obj differs from old only in GC-owned metadata. Never mutates either. */
export function isOnlyMutatingGCFields(obj: KubeObject, old: KubeObject | undefined): boolean {
  if (!old) return false;
  const pick = (m: KubeObject['metadata']) => ({ ownerReferences: m.ownerReferences, finalizers: m.finalizers, selfLink: m.selfLink, managedFields: m.managedFields });
  const copy = { ...obj, metadata: { ...obj.metadata, ...pick(old.metadata) } };
  return semanticEqual(copy, old);
}
