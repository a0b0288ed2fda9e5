/**
 * The endpointslices resource of discovery.k8s.io/v1, stored under /endpointslices/<namespace>/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultEndpointSlice, endpointSliceStrategy } from './strategy.js';

/** Builds the discovery.k8s.io/v1 endpointslices registration. */
export const endpointSlicesModule = defineResourceModule({
  group: 'discovery.k8s.io',
  resource: 'endpointslices',
  kind: 'EndpointSlice',
  keyPrefix: '/endpointslices',
  storageVersion: 'v1',
  strategy: endpointSliceStrategy,
  versions: [{ version: 'v1', defaulter: defaultEndpointSlice }],
});
