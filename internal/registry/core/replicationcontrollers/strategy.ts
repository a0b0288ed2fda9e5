/**
 * ReplicationController rules (kube's pkg/registry/core/replicationcontroller): status reset on
 * create and written only through replicationcontrollers/status; generation tracking; a mutable
 * selector; dependents orphaned by default in core/v1; and the status.replicas field selector.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { ScaleMapping } from '../../generic/scale-store.js';
import type { SelectableFields, StatusStrategy } from '../../generic/strategy.js';
import { asObject, numberAt, objectAt } from '../shared/json-value.js';
import { takeAllButStatusFrom } from '../shared/status-write.js';
import { podNameWarnings } from '../../shared/name-warnings.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateReplicationController, validateReplicationControllerStatus } from './validation.js';

/** core/v1's field label conversion for ReplicationController. */
export const replicationControllerFields: SelectableFields = {
  extra: ['status.replicas'],
  style: 'core',
  values: (obj) => ({ 'status.replicas': String(numberAt(asObject(obj.status), 'replicas') ?? 0) }),
};

/** The ReplicationController strategy. */
export const replicationControllerStrategy = defineStrategy({
  namespaced: true,
  tracksGeneration: true,
  hasStatus: true,
  // ReplicationControllerStatus.replicas has no omitempty: kube serializes an empty status as {replicas: 0}.
  initialStatus: () => ({ replicas: 0 }),
  defaultGarbageCollectionPolicy: 'OrphanDependents',
  selectableFields: replicationControllerFields,
  validate: validateReplicationController,
  warningsOnCreate: (_ctx, obj) => podNameWarnings(obj),
});

/** replicationcontrollers/status: only status changes. */
export const replicationControllerStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate(_ctx, obj) {
    return validateReplicationControllerStatus(obj);
  },
};

/** Scale over spec.replicas with the selector map rendered as kube's labels.SelectorFromSet does. */
export const replicationControllerScale: ScaleMapping = {
  specReplicas: (o: KubeObject) => numberAt(asObject(o.spec), 'replicas') ?? 1,
  setSpecReplicas: (o, n) => {
    const spec = asObject(o.spec) ?? (o.spec = {});
    (spec as Record<string, unknown>).replicas = n;
  },
  statusReplicas: (o) => numberAt(asObject(o.status), 'replicas') ?? 0,
  selector: (o) => ({ matchLabels: (objectAt(asObject(o.spec), 'selector') ?? {}) as Record<string, string> }),
};
