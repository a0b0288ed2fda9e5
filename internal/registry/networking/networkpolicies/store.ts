/**
 * The networkpolicies resource of networking.k8s.io/v1, stored under /networkpolicies/<namespace>/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultNetworkPolicy, networkPolicyStrategy } from './strategy.js';

/** Builds the networking.k8s.io/v1 networkpolicies registration. */
export const networkPoliciesModule = defineResourceModule({
  group: 'networking.k8s.io',
  resource: 'networkpolicies',
  kind: 'NetworkPolicy',
  keyPrefix: '/networkpolicies',
  storageVersion: 'v1',
  strategy: networkPolicyStrategy,
  versions: [{ version: 'v1', defaulter: defaultNetworkPolicy }],
});
