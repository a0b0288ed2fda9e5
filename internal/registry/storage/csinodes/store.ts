/**
 * The csinodes resource of storage.k8s.io/v1, stored under /csinodes/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { csiNodeStrategy } from './strategy.js';

/** Builds the storage.k8s.io/v1 csinodes registration. */
export const csiNodesModule = defineResourceModule({
  group: 'storage.k8s.io',
  resource: 'csinodes',
  kind: 'CSINode',
  keyPrefix: '/csinodes',
  storageVersion: 'v1',
  strategy: csiNodeStrategy,
  versions: [{ version: 'v1' }],
});
