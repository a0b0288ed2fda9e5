/**
 * The rolebindings resource of rbac.authorization.k8s.io/v1, stored under
 * /rolebindings/<namespace>/<name>: a Role or ClusterRole reference that never changes, and
 * User, Group or ServiceAccount subjects. roleRef.apiGroup and subject apiGroups are defaulted.
 */
import type { ResourceModule } from '../../registration.js';
import { buildRegistrations, storeFor, type ResourceDefinition } from '../../shared/resource-module.js';
import { guardBindings } from '../shared/escalation-guard.js';
import { defaultBinding } from '../shared/validation.js';
import { roleBindingStrategy } from './strategy.js';

const definition: ResourceDefinition = {
  group: 'rbac.authorization.k8s.io',
  resource: 'rolebindings',
  kind: 'RoleBinding',
  keyPrefix: '/rolebindings',
  storageVersion: 'v1',
  strategy: roleBindingStrategy,
  versions: [{ version: 'v1', defaulter: defaultBinding }],
};

/** Builds the rbac.authorization.k8s.io/v1 rolebindings registration, writes guarded by RBAC's escalation prevention. */
export const roleBindingsModule: ResourceModule = (deps) =>
  buildRegistrations({ ...definition, decorateMain: (store) => guardBindings(store, deps.security) }, storeFor(definition, deps.storage, deps.storeSettings));
