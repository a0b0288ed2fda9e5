/**
 * ClusterRoleBinding rules (kube's pkg/registry/rbac/clusterrolebinding): a ClusterRole
 * reference that never changes, subjects (service accounts with their namespace), path-segment
 * names, and PUT may create.
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
