/**
 * The roles resource of rbac.authorization.k8s.io/v1, stored under /roles/<namespace>/<name>.
 * Names are path segments; rules are checked as kube's ValidateRole does; PUT may create.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { roleStrategy } from './strategy.js';

/** Builds the rbac.authorization.k8s.io/v1 roles registration. */
export const rolesModule = defineResourceModule({
  group: 'rbac.authorization.k8s.io',
  resource: 'roles',
  kind: 'Role',
  keyPrefix: '/roles',
  storageVersion: 'v1',
  strategy: roleStrategy,
  versions: [{ version: 'v1' }],
});
