/**
 * PodDisruptionBudget rules (kube's pkg/registry/policy/poddisruptionbudget): status written only
 * through poddisruptionbudgets/status (its four counts are always serialized), generation
 * tracking, and a spec with minAvailable or maxUnavailable (not both) as a non-negative integer
 * or a percentage of at most 100, a valid selector and a known unhealthy-pod eviction policy.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { LabelSelectorObject } from '../../../selectors/label-selector-object.js';
import { validateLabelSelector } from '../../../selectors/label-selector-object.js';
import { invalid, notSupported, type FieldError } from '../../../validation/field-error.js';
import type { StatusStrategy } from '../../generic/strategy.js';
import { validateNonnegativeField } from '../../core/shared/field-immutable.js';
import { asObject, objectAt } from '../../core/shared/json-value.js';
import { takeAllButStatusFrom } from '../../core/shared/status-write.js';
import { isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../../shared/int-or-percent.js';
import { defineStrategy } from '../../shared/strategy-factory.js';

const evictionPolicies = ['AlwaysAllow', 'IfHealthyBudget'];

/** ValidatePodDisruptionBudgetSpec. Never mutates. */
export function validatePodDisruptionBudget(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec) ?? {};
  const errs: FieldError[] = [];
  const set = (f: string): boolean => spec[f] !== undefined && spec[f] !== null;
  if (set('minAvailable') && set('maxUnavailable')) errs.push(invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set'));
  for (const f of ['minAvailable', 'maxUnavailable']) {
    if (!set(f)) continue;
    errs.push(...validatePositiveIntOrPercent(spec[f], `spec.${f}`), ...isNotMoreThan100Percent(spec[f], `spec.${f}`));
  }
  const selector = objectAt(spec, 'selector');
  if (selector) errs.push(...validateLabelSelector(selector as LabelSelectorObject, {}, 'spec.selector'));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && policy !== null && (typeof policy !== 'string' || !evictionPolicies.includes(policy))) {
    errs.push(notSupported('spec.unhealthyPodEvictionPolicy', policy, evictionPolicies));
  }
  return errs;
}

/** ValidatePodDisruptionBudgetStatusUpdate without metadata: non-negative counts. */
export function validatePodDisruptionBudgetStatus(obj: KubeObject): FieldError[] {
  const status = asObject(obj.status);
  return ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'].flatMap((f) => validateNonnegativeField(status?.[f], `status.${f}`));
}

/** The PodDisruptionBudget strategy. */
export const podDisruptionBudgetStrategy = defineStrategy({
  namespaced: true,
  tracksGeneration: true,
  hasStatus: true,
  initialStatus: () => ({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }),
  validate: validatePodDisruptionBudget,
});

/** poddisruptionbudgets/status: only status changes. */
export const podDisruptionBudgetStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate(_ctx, obj) {
    return validatePodDisruptionBudgetStatus(obj);
  },
};
