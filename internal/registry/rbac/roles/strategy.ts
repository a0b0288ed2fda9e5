/**
 * The roles resource of rbac.authorization.k8s.io/v1, stored under /roles/<namespace>/<name>.
 * Names are path segments; rules are checked as kube's ValidateRole does; PUT may create.
 */
import { defineStrategy } from '../../shared/strategy-factory.js';
import { arrayAt } from '../../core/shared/json-value.js';
import { validateRules } from '../shared/validation.js';

/** The Role strategy (kube's pkg/registry/rbac/role). */
export const roleStrategy = defineStrategy({
  namespaced: true,
  allowCreateOnUpdate: true,
  nameValidation: 'path-segment',
  validate: (obj) => validateRules(arrayAt(obj, 'rules'), true),
});
