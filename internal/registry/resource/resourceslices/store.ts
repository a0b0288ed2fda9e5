/**
 * The resourceslices resource of resource.k8s.io, served in v1beta2, v1beta1 and v1alpha3 and
 * stored as v1beta1 under /resourceslices/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { resourceVersions } from '../shared/versions.js';
import { resourceSliceStrategy } from './strategy.js';

/** Builds the resource.k8s.io resourceslices registrations. */
export const resourceSlicesModule = defineResourceModule({
  group: 'resource.k8s.io',
  resource: 'resourceslices',
  kind: 'ResourceSlice',
  keyPrefix: '/resourceslices',
  storageVersion: 'v1beta1',
  strategy: resourceSliceStrategy,
  versions: resourceVersions('slice'),
});
