/**
 * The csistoragecapacities resource of storage.k8s.io/v1, stored under
 * /csistoragecapacities/<namespace>/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { csiStorageCapacityStrategy } from './strategy.js';

/** Builds the storage.k8s.io/v1 csistoragecapacities registration. */
export const csiStorageCapacitiesModule = defineResourceModule({
  group: 'storage.k8s.io',
  resource: 'csistoragecapacities',
  kind: 'CSIStorageCapacity',
  keyPrefix: '/csistoragecapacities',
  storageVersion: 'v1',
  strategy: csiStorageCapacityStrategy,
  versions: [{ version: 'v1' }],
});
