/**
 * DaemonSet validation (kube's ValidateDaemonSetSpec): a valid non-empty selector matching the
 * template, a template with restartPolicy Always and no activeDeadlineSeconds, non-negative
 * counts, a RollingUpdate strategy with exactly one of maxUnavailable and maxSurge non-zero, or
 * OnDelete.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { validateNonnegativeField } from '../../core/shared/field-immutable.js';
import { asObject, objectAt, stringAt, type JsonObject } from '../../core/shared/json-value.js';
import { intOrPercentValue, isNotMoreThan100Percent, validatePositiveIntOrPercent } from '../../shared/int-or-percent.js';
import { validateControllerTemplate } from '../../shared/pod-template-validation.js';
import { checkLabelSelector } from '../../shared/selector-validation.js';

/** The annotation apps/v1 keeps the internal spec.templateGeneration in. */
export const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';

function validateUpdateStrategy(strategy: JsonObject | undefined): FieldError[] {
  const path = 'spec.updateStrategy';
  const type = stringAt(strategy, 'type');
  if (type === 'OnDelete') return [];
  if (type !== 'RollingUpdate') return [notSupported(path, strategy ?? {}, ['RollingUpdate', 'OnDelete'])];
  const ru = objectAt(strategy, 'rollingUpdate');
  if (!ru) return [required(`${path}.rollingUpdate`, '')];
  const p = `${path}.rollingUpdate`;
  const errs = [
    ...validatePositiveIntOrPercent(ru.maxUnavailable, `${p}.maxUnavailable`),
    ...validatePositiveIntOrPercent(ru.maxSurge, `${p}.maxSurge`),
    ...isNotMoreThan100Percent(ru.maxUnavailable, `${p}.maxUnavailable`),
    ...isNotMoreThan100Percent(ru.maxSurge, `${p}.maxSurge`),
  ];
  const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
  if (hasUnavailable && hasSurge) errs.push(invalid(`${p}.maxSurge`, ru.maxSurge, 'may not be set when maxUnavailable is non-zero'));
  else if (!hasUnavailable && !hasSurge) errs.push(required(`${p}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
  return errs;
}

/** ValidateDaemonSetSpec. Never mutates. */
export function validateDaemonSet(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const checked = checkLabelSelector(spec?.selector, 'spec.selector', { required: false, emptyWord: 'daemonset', reportUnparsable: false });
  const errs = [...checked.errs];
  errs.push(...validateControllerTemplate(objectAt(spec, 'template') ?? {}, checked.selector, 'spec.template', { kind: 'DaemonSet', activeDeadline: 'daemon' }));
  errs.push(...validateNonnegativeField(spec?.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...validateUpdateStrategy(objectAt(spec, 'updateStrategy')));
  errs.push(...validateNonnegativeField(spec?.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  return errs;
}

/** ValidateDaemonSetStatusUpdate without metadata: non-negative counts. */
export function validateDaemonSetStatus(obj: KubeObject): FieldError[] {
  const status = asObject(obj.status);
  const errs: FieldError[] = [];
  for (const f of ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady', 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount']) {
    errs.push(...validateNonnegativeField(status?.[f], `status.${f}`));
  }
  return errs;
}
