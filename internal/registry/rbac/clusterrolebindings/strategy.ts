/**
 * The clusterrolebindings resource of rbac.authorization.k8s.io/v1, stored under
 * /clusterrolebindings/<name>: a ClusterRole reference that never changes, and subjects (service
 * accounts with their namespace). roleRef.apiGroup and subject apiGroups are defaulted.
 */
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateBinding, validateRoleRefUnchanged } from '../shared/validation.js';

/** The ClusterRoleBinding strategy (kube's pkg/registry/rbac/clusterrolebinding). */
export const clusterRoleBindingStrategy = defineStrategy({
  namespaced: false,
  allowCreateOnUpdate: true,
  nameValidation: 'path-segment',
  validate: (obj) => validateBinding(obj, false),
  validateUpdate: (obj, old) => [...validateBinding(obj, false), ...validateRoleRefUnchanged(obj, old)],
});
