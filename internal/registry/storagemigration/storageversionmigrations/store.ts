/**
 * The storageversionmigrations resource of storagemigration.k8s.io/v1alpha1, stored under
 * /storageversionmigrations/<name>, with storageversionmigrations/status.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { statusOnlyStrategy } from '../../shared/status-only.js';
import { storageVersionMigrationStrategy } from './strategy.js';

/** Builds the storagemigration.k8s.io/v1alpha1 storageversionmigrations registration. */
export const storageVersionMigrationsModule = defineResourceModule({
  group: 'storagemigration.k8s.io',
  resource: 'storageversionmigrations',
  kind: 'StorageVersionMigration',
  keyPrefix: '/storageversionmigrations',
  storageVersion: 'v1alpha1',
  strategy: storageVersionMigrationStrategy,
  versions: [{ version: 'v1alpha1' }],
  status: statusOnlyStrategy,
});
