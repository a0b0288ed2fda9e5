/**
 * ReplicaSet rules (kube's pkg/registry/apps/replicaset): status reset on create and written only
 * through replicasets/status, generation tracking, an immutable selector in apps/v1, and
 * dependents deleted by default.
 */
import type { StatusStrategy } from '../../generic/strategy.js';
import { validateImmutableField } from '../../core/shared/field-immutable.js';
import { asObject } from '../../core/shared/json-value.js';
import { takeAllButStatusFrom } from '../../core/shared/status-write.js';
import { podNameWarnings } from '../../shared/name-warnings.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateReplicaSet, validateReplicaSetStatus } from './validation.js';

/** The ReplicaSet strategy. */
export const replicaSetStrategy = defineStrategy({
  namespaced: true,
  tracksGeneration: true,
  hasStatus: true,
  // ReplicaSetStatus.replicas has no omitempty: kube serializes an empty status as {replicas: 0}.
  initialStatus: () => ({ replicas: 0 }),
  defaultGarbageCollectionPolicy: 'DeleteDependents',
  validate: (obj) => validateReplicaSet(obj),
  validateUpdate: (obj, old) => [
    ...validateReplicaSet(obj),
    ...validateImmutableField(asObject(obj.spec)?.selector, asObject(old.spec)?.selector, 'spec.selector'),
  ],
  warningsOnCreate: (_ctx, obj) => podNameWarnings(obj),
});

/** replicasets/status: only status changes. */
export const replicaSetStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate(_ctx, obj) {
    return validateReplicaSetStatus(obj);
  },
};
