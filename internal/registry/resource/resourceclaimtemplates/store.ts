/**
 * The resourceclaimtemplates resource of resource.k8s.io, served in v1beta2, v1beta1 and
 * v1alpha3 and stored as v1beta1 under /resourceclaimtemplates/<namespace>/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { resourceVersions } from '../shared/versions.js';
import { resourceClaimTemplateStrategy } from './strategy.js';

/** Builds the resource.k8s.io resourceclaimtemplates registrations. */
export const resourceClaimTemplatesModule = defineResourceModule({
  group: 'resource.k8s.io',
  resource: 'resourceclaimtemplates',
  kind: 'ResourceClaimTemplate',
  keyPrefix: '/resourceclaimtemplates',
  storageVersion: 'v1beta1',
  strategy: resourceClaimTemplateStrategy,
  versions: resourceVersions('template'),
});
