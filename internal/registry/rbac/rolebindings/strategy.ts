/**
 * The rolebindings resource of rbac.authorization.k8s.io/v1, stored under
 * /rolebindings/<namespace>/<name>: a Role or ClusterRole reference that never changes, and
 * User, Group or ServiceAccount subjects. roleRef.apiGroup and subject apiGroups are defaulted.
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
