/**
 * The resourceclaims resource of resource.k8s.io, served in v1beta2, v1beta1 and v1alpha3 and
 * stored as v1beta1 under /resourceclaims/<namespace>/<name>, with resourceclaims/status.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { statusOnlyStrategy } from '../../shared/status-only.js';
import { resourceVersions } from '../shared/versions.js';
import { resourceClaimStrategy } from './strategy.js';

/** Builds the resource.k8s.io resourceclaims registrations. */
export const resourceClaimsModule = defineResourceModule({
  group: 'resource.k8s.io',
  resource: 'resourceclaims',
  kind: 'ResourceClaim',
  keyPrefix: '/resourceclaims',
  storageVersion: 'v1beta1',
  strategy: resourceClaimStrategy,
  versions: resourceVersions('claim'),
  status: statusOnlyStrategy,
});
