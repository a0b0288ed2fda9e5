/**
 * PersistentVolumeClaim rules (kube's pkg/registry/core/persistentvolumeclaim): status starts as
 * phase Pending and is written only through persistentvolumeclaims/status; dataSource and
 * dataSourceRef are kept in step (AnyVolumeDataSource).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { StatusStrategy } from '../../generic/strategy.js';
import { asObject, objectAt } from '../shared/json-value.js';
import { takeAllButStatusFrom } from '../shared/status-write.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateClaim, validateClaimUpdate } from './validation.js';

/** NormalizeDataSources: whichever of dataSource and dataSourceRef is set fills the other. Mutates obj. */
export function normalizeDataSources(obj: KubeObject): void {
  const spec = asObject(obj.spec);
  if (!spec) return;
  const source = objectAt(spec, 'dataSource');
  const ref = objectAt(spec, 'dataSourceRef');
  if (source && !ref) spec.dataSourceRef = structuredClone(source);
  else if (ref && !source && !ref.namespace) {
    const { namespace: _ns, ...rest } = ref;
    spec.dataSource = structuredClone(rest);
  }
}

/** The PersistentVolumeClaim strategy. */
export const persistentVolumeClaimStrategy = defineStrategy({
  namespaced: true,
  hasStatus: true,
  initialStatus: () => ({ phase: 'Pending' }),
  prepareForCreate: (_ctx, obj) => normalizeDataSources(obj),
  prepareForUpdate: (_ctx, obj) => normalizeDataSources(obj),
  validate: validateClaim,
  validateUpdate: validateClaimUpdate,
});

/** persistentvolumeclaims/status: only status changes. */
export const persistentVolumeClaimStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate() {
    return [];
  },
};
