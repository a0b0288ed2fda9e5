/**
 * The clusterroles resource of rbac.authorization.k8s.io/v1, stored under /clusterroles/<name>.
 * Rules may name non-resource URLs; an aggregation rule needs at least one valid selector.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { clusterRoleStrategy } from './strategy.js';

/** Builds the rbac.authorization.k8s.io/v1 clusterroles registration. */
export const clusterRolesModule = defineResourceModule({
  group: 'rbac.authorization.k8s.io',
  resource: 'clusterroles',
  kind: 'ClusterRole',
  keyPrefix: '/clusterroles',
  storageVersion: 'v1',
  strategy: clusterRoleStrategy,
  versions: [{ version: 'v1' }],
});
