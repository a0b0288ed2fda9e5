/**
 * Role rules (kube's pkg/registry/rbac/role): names are path segments, each policy rule has
 * verbs and API groups with resources (namespaced rules cannot name non-resource URLs), and PUT
 * may create.
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
