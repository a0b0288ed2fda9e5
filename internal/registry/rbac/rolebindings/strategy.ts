/**
 * RoleBinding rules (kube's pkg/registry/rbac/rolebinding): a Role or ClusterRole reference that
 * never changes, User, Group or ServiceAccount subjects, path-segment names, and PUT may create.
 */
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateBinding, validateRoleRefUnchanged } from '../shared/validation.js';

/** The RoleBinding strategy (kube's pkg/registry/rbac/rolebinding). */
export const roleBindingStrategy = defineStrategy({
  namespaced: true,
  allowCreateOnUpdate: true,
  nameValidation: 'path-segment',
  validate: (obj) => validateBinding(obj, true),
  validateUpdate: (obj, old) => [...validateBinding(obj, true), ...validateRoleRefUnchanged(obj, old)],
});
