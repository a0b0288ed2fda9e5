/**
 * The csidrivers resource of storage.k8s.io/v1, stored under /csidrivers/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { csiDriverStrategy, defaultCSIDriver } from './strategy.js';

/** Builds the storage.k8s.io/v1 csidrivers registration. */
export const csiDriversModule = defineResourceModule({
  group: 'storage.k8s.io',
  resource: 'csidrivers',
  kind: 'CSIDriver',
  keyPrefix: '/csidrivers',
  storageVersion: 'v1',
  strategy: csiDriverStrategy,
  versions: [{ version: 'v1', defaulter: defaultCSIDriver }],
});
