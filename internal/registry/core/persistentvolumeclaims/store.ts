/**
 * The persistentvolumeclaims resource of core/v1, stored under
 * /persistentvolumeclaims/<namespace>/<name>, with persistentvolumeclaims/status.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultPersistentVolumeClaim } from './defaults.js';
import { persistentVolumeClaimStatusStrategy, persistentVolumeClaimStrategy } from './strategy.js';

/** Builds the core/v1 persistentvolumeclaims registration. */
export const persistentVolumeClaimsModule = defineResourceModule({
  group: '',
  resource: 'persistentvolumeclaims',
  kind: 'PersistentVolumeClaim',
  keyPrefix: '/persistentvolumeclaims',
  storageVersion: 'v1',
  strategy: persistentVolumeClaimStrategy,
  versions: [{ version: 'v1', defaulter: defaultPersistentVolumeClaim }],
  status: persistentVolumeClaimStatusStrategy,
});
