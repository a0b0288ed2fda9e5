/**
 * The clusterroles resource of rbac.authorization.k8s.io/v1, stored under /clusterroles/<name>.
 * Rules may name non-resource URLs; an aggregation rule needs at least one valid selector.
 */
import type { ResourceModule } from '../../registration.js';
import { buildRegistrations, storeFor, type ResourceDefinition } from '../../shared/resource-module.js';
import { guardRoles } from '../shared/escalation-guard.js';
import { clusterRoleStrategy } from './strategy.js';

const definition: ResourceDefinition = {
  group: 'rbac.authorization.k8s.io',
  resource: 'clusterroles',
  kind: 'ClusterRole',
  keyPrefix: '/clusterroles',
  storageVersion: 'v1',
  strategy: clusterRoleStrategy,
  versions: [{ version: 'v1' }],
};

/** Builds the rbac.authorization.k8s.io/v1 clusterroles registration, writes guarded by RBAC's escalation prevention. */
export const clusterRolesModule: ResourceModule = (deps) =>
  buildRegistrations({ ...definition, decorateMain: (store) => guardRoles(store, deps.security) }, storeFor(definition, deps.storage, deps.storeSettings));
