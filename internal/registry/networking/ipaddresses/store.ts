/**
 * The ipaddresses resource of networking.k8s.io, served in v1 and v1beta1 (the same schema) and
 * stored as v1beta1 (kube 1.33's storage version, v1 being new in 1.33) under /ipaddresses/<name>.
 */
import { identityConversion } from '../../shared/conversion.js';
import { defineResourceModule } from '../../shared/resource-module.js';
import { ipAddressStrategy } from './strategy.js';

/** Builds the networking.k8s.io/v1 and v1beta1 ipaddresses registrations. */
export const ipAddressesModule = defineResourceModule({
  group: 'networking.k8s.io',
  resource: 'ipaddresses',
  kind: 'IPAddress',
  keyPrefix: '/ipaddresses',
  storageVersion: 'v1beta1',
  strategy: ipAddressStrategy,
  versions: [{ version: 'v1', conversion: identityConversion }, { version: 'v1beta1' }],
});
