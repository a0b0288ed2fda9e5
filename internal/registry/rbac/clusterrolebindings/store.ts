/**
 * The clusterrolebindings resource of rbac.authorization.k8s.io/v1, stored under
 * /clusterrolebindings/<name>: a ClusterRole reference that never changes, and subjects (service
 * accounts with their namespace). roleRef.apiGroup and subject apiGroups are defaulted.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultBinding } from '../shared/validation.js';
import { clusterRoleBindingStrategy } from './strategy.js';

/** Builds the rbac.authorization.k8s.io/v1 clusterrolebindings registration. */
export const clusterRoleBindingsModule = defineResourceModule({
  group: 'rbac.authorization.k8s.io',
  resource: 'clusterrolebindings',
  kind: 'ClusterRoleBinding',
  keyPrefix: '/clusterrolebindings',
  storageVersion: 'v1',
  strategy: clusterRoleBindingStrategy,
  versions: [{ version: 'v1', defaulter: defaultBinding }],
});
