/**
 * The clusterrolebindings resource of rbac.authorization.k8s.io/v1, stored under
 * /clusterrolebindings/<name>: a ClusterRole reference that never changes, and subjects (service
 * accounts with their namespace). roleRef.apiGroup and subject apiGroups are defaulted.
 */
import type { ResourceModule } from '../../registration.js';
import { buildRegistrations, storeFor, type ResourceDefinition } from '../../shared/resource-module.js';
import { guardBindings } from '../shared/escalation-guard.js';
import { defaultBinding } from '../shared/validation.js';
import { clusterRoleBindingStrategy } from './strategy.js';

const definition: ResourceDefinition = {
  group: 'rbac.authorization.k8s.io',
  resource: 'clusterrolebindings',
  kind: 'ClusterRoleBinding',
  keyPrefix: '/clusterrolebindings',
  storageVersion: 'v1',
  strategy: clusterRoleBindingStrategy,
  versions: [{ version: 'v1', defaulter: defaultBinding }],
};

/** Builds the rbac.authorization.k8s.io/v1 clusterrolebindings registration, writes guarded by RBAC's escalation prevention. */
export const clusterRoleBindingsModule: ResourceModule = (deps) =>
  buildRegistrations({ ...definition, decorateMain: (store) => guardBindings(store, deps.security) }, storeFor(definition, deps.storage, deps.storeSettings));
