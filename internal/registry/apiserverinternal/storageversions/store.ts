/**
 * The storageversions resource of internal.apiserver.k8s.io/v1alpha1, stored under
 * /storageversions/<name>, with storageversions/status.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { statusOnlyStrategy } from '../../shared/status-only.js';
import { storageVersionStrategy } from './strategy.js';

/** Builds the internal.apiserver.k8s.io/v1alpha1 storageversions registration. */
export const storageVersionsModule = defineResourceModule({
  group: 'internal.apiserver.k8s.io',
  resource: 'storageversions',
  kind: 'StorageVersion',
  keyPrefix: '/storageversions',
  storageVersion: 'v1alpha1',
  strategy: storageVersionStrategy,
  versions: [{ version: 'v1alpha1' }],
  status: statusOnlyStrategy,
});
