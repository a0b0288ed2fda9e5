/**
 * The servicecidrs resource of networking.k8s.io, served in v1 and v1beta1 (the same schema) and
 * stored as v1beta1 (kube 1.33's storage version) under /servicecidrs/<name>, with servicecidrs/status.
 */
import { identityConversion } from '../../shared/conversion.js';
import { defineResourceModule } from '../../shared/resource-module.js';
import { serviceCIDRStatusStrategy, serviceCIDRStrategy } from './strategy.js';

/** Builds the networking.k8s.io/v1 and v1beta1 servicecidrs registrations. */
export const serviceCIDRsModule = defineResourceModule({
  group: 'networking.k8s.io',
  resource: 'servicecidrs',
  kind: 'ServiceCIDR',
  keyPrefix: '/servicecidrs',
  storageVersion: 'v1beta1',
  strategy: serviceCIDRStrategy,
  versions: [{ version: 'v1', conversion: identityConversion }, { version: 'v1beta1' }],
  status: serviceCIDRStatusStrategy,
});
