/**
 * ClusterRole rules (kube's pkg/registry/rbac/clusterrole): names are path segments, policy rules
 * may name non-resource URLs, an aggregation rule needs at least one valid selector, and PUT may
 * create.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { labelSelectorAsSelector, validateLabelSelector, type LabelSelectorObject } from '../../../selectors/label-selector-object.js';
import { indexPath, invalid, required, type FieldError } from '../../../validation/field-error.js';
import { arrayAt, asObject } from '../../core/shared/json-value.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateRules } from '../shared/validation.js';

function validateClusterRole(obj: KubeObject): FieldError[] {
  const errs = validateRules(arrayAt(obj, 'rules'), false);
  const aggregation = asObject(obj.aggregationRule);
  if (aggregation) {
    const selectors = arrayAt(aggregation, 'clusterRoleSelectors');
    if (selectors.length === 0) {
      errs.push(required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    }
    selectors.forEach((raw, i) => {
      const path = indexPath('aggregationRule.clusterRoleSelectors', i);
      const sel = (asObject(raw) ?? {}) as LabelSelectorObject;
      errs.push(...validateLabelSelector(sel, {}, path));
      try {
        labelSelectorAsSelector(sel);
      } catch {
        errs.push(invalid(path, sel, 'invalid label selector.'));
      }
    });
  }
  return errs;
}

/** The ClusterRole strategy (kube's pkg/registry/rbac/clusterrole). */
export const clusterRoleStrategy = defineStrategy({
  namespaced: false,
  allowCreateOnUpdate: true,
  nameValidation: 'path-segment',
  validate: validateClusterRole,
});
