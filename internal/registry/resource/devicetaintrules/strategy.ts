/**
 * DeviceTaintRule rules (kube's pkg/registry/resource/devicetaintrule): a taint with a qualified
 * key, a label-value value and effect NoSchedule or NoExecute, stamped with timeAdded when
 * created or changed; selectors with CEL expressions; generation tracking.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { isQualifiedName, isValidLabelValue } from '../../../validation/label-values.js';
import { metaTime } from '../../generic/object-meta.js';
import { arrayAt, asObject, objectAt, stringAt } from '../../core/shared/json-value.js';
import { semanticEqual } from '../../core/shared/semantic-equal.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { validateSelectors } from '../shared/validation.js';

const effects = ['NoExecute', 'NoSchedule'];

function validateTaintRule(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const taint = objectAt(spec, 'taint');
  const errs: FieldError[] = [];
  const key = stringAt(taint, 'key');
  if (!key) errs.push(required('spec.taint.key', ''));
  else errs.push(...isQualifiedName(key).map((m) => invalid('spec.taint.key', key, m)));
  const value = stringAt(taint, 'value');
  if (value) errs.push(...isValidLabelValue(value).map((m) => invalid('spec.taint.value', value, m)));
  const effect = stringAt(taint, 'effect');
  if (!effect) errs.push(required('spec.taint.effect', ''));
  else if (!effects.includes(effect)) errs.push(notSupported('spec.taint.effect', effect, effects));
  errs.push(...validateSelectors(arrayAt(objectAt(spec, 'deviceSelector'), 'selectors'), 'spec.deviceSelector.selectors'));
  return errs;
}

/** Stamps spec.taint.timeAdded when it is missing or the taint changed without a new time. */
function stampTimeAdded(obj: KubeObject, old: KubeObject | undefined): void {
  const taint = objectAt(asObject(obj.spec), 'taint');
  if (!taint) return;
  const oldTaint = objectAt(asObject(old?.spec), 'taint');
  const changed = !old || !semanticEqual({ ...taint, timeAdded: undefined }, { ...(oldTaint ?? {}), timeAdded: undefined });
  if (!taint.timeAdded || (changed && taint.timeAdded === oldTaint?.timeAdded)) taint.timeAdded = metaTime();
}

/** The DeviceTaintRule strategy. */
export const deviceTaintRuleStrategy = defineStrategy({
  namespaced: false,
  tracksGeneration: true,
  prepareForCreate: (_ctx, obj) => stampTimeAdded(obj, undefined),
  prepareForUpdate: (_ctx, obj, old) => stampTimeAdded(obj, old),
  validate: validateTaintRule,
});
