/**
 * The rolebindings resource of rbac.authorization.k8s.io/v1, stored under
 * /rolebindings/<namespace>/<name>: a Role or ClusterRole reference that never changes, and
 * User, Group or ServiceAccount subjects. roleRef.apiGroup and subject apiGroups are defaulted.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { defaultBinding, validateBinding, validateRoleRefUnchanged } from '../shared/validation.js';

/** The RoleBinding strategy (kube's pkg/registry/rbac/rolebinding). */
export const roleBindingStrategy = defineStrategy({
  namespaced: true,
  allowCreateOnUpdate: true,
  nameValidation: 'path-segment',
  validate: (obj) => validateBinding(obj, true),
  validateUpdate: (obj, old) => [...validateBinding(obj, true), ...validateRoleRefUnchanged(obj, old)],
});

/** Builds the rbac.authorization.k8s.io/v1 rolebindings registration. */
export const roleBindingsModule = defineResourceModule({
  group: 'rbac.authorization.k8s.io',
  resource: 'rolebindings',
  kind: 'RoleBinding',
  keyPrefix: '/rolebindings',
  storageVersion: 'v1',
  strategy: roleBindingStrategy,
  versions: [{ version: 'v1', defaulter: defaultBinding }],
});
