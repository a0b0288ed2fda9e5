/**
 * The storageclasses resource of storage.k8s.io/v1, stored under /storageclasses/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultStorageClass, storageClassStrategy } from './strategy.js';

/** Builds the storage.k8s.io/v1 storageclasses registration. */
export const storageClassesModule = defineResourceModule({
  group: 'storage.k8s.io',
  resource: 'storageclasses',
  kind: 'StorageClass',
  keyPrefix: '/storageclasses',
  storageVersion: 'v1',
  strategy: storageClassStrategy,
  versions: [{ version: 'v1', defaulter: defaultStorageClass }],
});
