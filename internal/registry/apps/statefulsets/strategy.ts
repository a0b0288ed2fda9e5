/**
 * StatefulSet rules (kube's pkg/registry/apps/statefulset): status reset on create and written
 * only through statefulsets/status, generation tracking, dependents deleted by default, and the
 * selector (with the rest of the spec outside a few fields) fixed after creation.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { StatusStrategy } from '../../generic/strategy.js';
import { asObject } from '../../core/shared/json-value.js';
import { takeAllButStatusFrom } from '../../core/shared/status-write.js';
import { podNameWarnings } from '../../shared/name-warnings.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateStatefulSet, validateStatefulSetStatus, validateStatefulSetUpdate } from './validation.js';

/**
 * kube's apps/v1 conversion writes apiVersion v1 and kind PersistentVolumeClaim into each volume
 * claim template (issue 87583), so stored and served templates carry them: on every decode (the
 * defaulter calls it, since a Protobuf body cannot carry them) and before storing. Mutates obj.
 */
export function typeClaimTemplates(obj: KubeObject): void {
  const templates = asObject(obj.spec)?.volumeClaimTemplates;
  if (!Array.isArray(templates)) return;
  asObjectList(templates).forEach((t, i) => {
    const { apiVersion: _a, kind: _k, ...rest } = t;
    templates[i] = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...rest };
  });
}

function asObjectList(list: unknown[]): Array<Record<string, unknown>> {
  return list.map((t) => asObject(t) ?? {});
}

/** The StatefulSet strategy. */
export const statefulSetStrategy = defineStrategy({
  namespaced: true,
  tracksGeneration: true,
  hasStatus: true,
  // replicas and availableReplicas have no omitempty in apps/v1 StatefulSetStatus.
  initialStatus: () => ({ availableReplicas: 0, replicas: 0 }),
  defaultGarbageCollectionPolicy: 'DeleteDependents',
  validate: (obj) => validateStatefulSet(obj),
  validateUpdate: (obj, old) => validateStatefulSetUpdate(obj, old),
  warningsOnCreate: (_ctx, obj) => podNameWarnings(obj),
  canonicalize: typeClaimTemplates,
});

/** statefulsets/status: only status changes. */
export const statefulSetStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate(_ctx, obj) {
    return validateStatefulSetStatus(obj);
  },
};
