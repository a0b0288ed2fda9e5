/**
 * The runtimeclasses resource of node.k8s.io/v1, stored under /runtimeclasses/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { runtimeClassStrategy } from './strategy.js';

/** Builds the node.k8s.io/v1 runtimeclasses registration. */
export const runtimeClassesModule = defineResourceModule({
  group: 'node.k8s.io',
  resource: 'runtimeclasses',
  kind: 'RuntimeClass',
  keyPrefix: '/runtimeclasses',
  storageVersion: 'v1',
  strategy: runtimeClassStrategy,
  versions: [{ version: 'v1' }],
});
