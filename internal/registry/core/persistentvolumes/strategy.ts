/**
 * PersistentVolume rules (kube's pkg/registry/core/persistentvolume): cluster-scoped; status
 * starts as phase Pending with its transition time and is written only through
 * persistentvolumes/status, which stamps lastPhaseTransitionTime whenever the phase changes.
 */
import type { StatusStrategy } from '../../generic/strategy.js';
import { metaTime } from '../../generic/object-meta.js';
import { asObject, stringAt } from '../shared/json-value.js';
import { takeAllButStatusFrom } from '../shared/status-write.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validatePersistentVolume, validatePersistentVolumeUpdate } from './validation.js';

/** The PersistentVolume strategy. */
export const persistentVolumeStrategy = defineStrategy({
  namespaced: false,
  hasStatus: true,
  initialStatus: () => ({ phase: 'Pending', lastPhaseTransitionTime: metaTime() }),
  validate: validatePersistentVolume,
  validateUpdate: validatePersistentVolumeUpdate,
});

/** persistentvolumes/status: only status changes; a new phase gets a new transition time. */
export const persistentVolumeStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
    const status = asObject(obj.status);
    const oldPhase = stringAt(asObject(old.status), 'phase');
    if (status && stringAt(status, 'phase') !== oldPhase) status.lastPhaseTransitionTime = metaTime();
  },
  validateUpdate() {
    return [];
  },
};
