/**
 * The roles resource of rbac.authorization.k8s.io/v1, stored under /roles/<namespace>/<name>.
 * Names are path segments; rules are checked as kube's ValidateRole does; PUT may create.
 */
import type { ResourceModule } from '../../registration.js';
import { buildRegistrations, storeFor, type ResourceDefinition } from '../../shared/resource-module.js';
import { guardRoles } from '../shared/escalation-guard.js';
import { roleStrategy } from './strategy.js';

const definition: ResourceDefinition = {
  group: 'rbac.authorization.k8s.io',
  resource: 'roles',
  kind: 'Role',
  keyPrefix: '/roles',
  storageVersion: 'v1',
  strategy: roleStrategy,
  versions: [{ version: 'v1' }],
};

/** Builds the rbac.authorization.k8s.io/v1 roles registration, writes guarded by RBAC's escalation prevention. */
export const rolesModule: ResourceModule = (deps) =>
  buildRegistrations({ ...definition, decorateMain: (store) => guardRoles(store, deps.security) }, storeFor(definition, deps.storage, deps.storeSettings));
