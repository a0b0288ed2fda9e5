/**
 * The deviceclasses resource of resource.k8s.io, served in v1beta2, v1beta1 and v1alpha3 and
 * stored as v1beta1 (kube 1.33's storage version) under /deviceclasses/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { resourceVersions } from '../shared/versions.js';
import { deviceClassStrategy } from './strategy.js';

/** Builds the resource.k8s.io deviceclasses registrations. */
export const deviceClassesModule = defineResourceModule({
  group: 'resource.k8s.io',
  resource: 'deviceclasses',
  kind: 'DeviceClass',
  keyPrefix: '/deviceclasses',
  storageVersion: 'v1beta1',
  strategy: deviceClassStrategy,
  versions: resourceVersions('class'),
});
