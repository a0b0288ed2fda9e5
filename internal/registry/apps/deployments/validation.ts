/**
 * Deployment validation (kube's pkg/apis/apps/validation, the parts that matter before full schema
 * validation): a valid non-empty selector matching the template's labels, a template that can run
 * (containers, restartPolicy Always, no activeDeadlineSeconds), non-negative counts, a known
 * strategy, and the status invariants of deployments/status.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import {
  labelSelectorAsSelector,
  validateLabelSelector,
  validateLabels,
  type LabelSelectorObject,
} from '../../../selectors/label-selector-object.js';
import { forbidden, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { regexError } from '../../../validation/label-values.js';
import { validateNonnegativeField } from '../../core/shared/field-immutable.js';
import { arrayAt, asObject, numberAt, objectAt, stringAt, type JsonObject } from '../../core/shared/json-value.js';
import { validatePodSpec } from '../../core/shared/pod-spec.js';

const strategyTypes = ['Recreate', 'RollingUpdate'];

/** ValidatePodTemplateSpecForReplicaSet: the template runs pods the selector owns. */
function validateTemplate(spec: JsonObject | undefined, selector: LabelSelectorObject | undefined, path: string): FieldError[] {
  const template = objectAt(spec, 'template');
  if (!template) return [required(path, '')];
  const errs: FieldError[] = [];
  const labels = (objectAt(objectAt(template, 'metadata'), 'labels') ?? {}) as Record<string, string>;
  if (selector) {
    try {
      const sel = labelSelectorAsSelector(selector);
      if (!sel.empty() && !sel.matches(labels)) {
        errs.push(invalid(`${path}.metadata.labels`, labels, '`selector` does not match template `labels`'));
      }
    } catch {
      // An unparsable selector was already reported as "invalid label selector".
    }
  }
  errs.push(...validateLabels(labels, `${path}.metadata.labels`));
  const podSpec = objectAt(template, 'spec');
  errs.push(...validatePodSpec(podSpec, `${path}.spec`, { isPod: false }));
  if (arrayAt(podSpec, 'ephemeralContainers').length > 0) {
    errs.push(forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  }
  const restartPolicy = stringAt(podSpec, 'restartPolicy');
  if (restartPolicy && restartPolicy !== 'Always') errs.push(notSupported(`${path}.spec.restartPolicy`, restartPolicy, ['Always']));
  if (podSpec?.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
    errs.push(forbidden(`${path}.spec.activeDeadlineSeconds`, 'activeDeadlineSeconds in ReplicaSet is not Supported'));
  }
  return errs;
}

const percentFmt = '[0-9]+%';
const percentRegexp = new RegExp(`^${percentFmt}$`);

/** getIntOrPercentValue: a percent's number, an integer, or Go's IntValue of a string (0 unless numeric). */
function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return 0;
  if (percentRegexp.test(v)) return Number(v.slice(0, -1));
  return /^[+-]?[0-9]+$/.test(v) ? Number(v) : 0;
}

/** ValidatePositiveIntOrPercent. */
function validatePositiveIntOrPercent(v: unknown, path: string): FieldError[] {
  if (typeof v === 'string') {
    if (percentRegexp.test(v)) return [];
    return [invalid(path, v, regexError("a valid percent string must be a numeric string followed by an ending '%'", percentFmt, '1%', '93%'))];
  }
  if (typeof v === 'number') return validateNonnegativeField(v, path);
  return [invalid(path, v ?? null, "must be an integer or percentage (e.g '5%')")];
}

/** ValidateRollingUpdateDeployment: non-negative ints or percents, not both zero, unavailability at most 100%. */
function validateRollingUpdate(rollingUpdate: JsonObject, path: string): FieldError[] {
  const maxUnavailable = rollingUpdate.maxUnavailable;
  const maxSurge = rollingUpdate.maxSurge;
  const unavailablePath = `${path}.maxUnavailable`;
  const errs = [...validatePositiveIntOrPercent(maxUnavailable, unavailablePath), ...validatePositiveIntOrPercent(maxSurge, `${path}.maxSurge`)];
  if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
    errs.push(invalid(unavailablePath, maxUnavailable ?? null, 'may not be 0 when `maxSurge` is 0'));
  }
  if (typeof maxUnavailable === 'string' && percentRegexp.test(maxUnavailable) && intOrPercentValue(maxUnavailable) > 100) {
    errs.push(invalid(unavailablePath, maxUnavailable, 'must not be greater than 100%'));
  }
  return errs;
}

/** ValidateDeploymentStrategy; a missing type or rollingUpdate is left to defaulting. */
function validateStrategy(strategy: JsonObject | undefined): FieldError[] {
  if (!strategy) return [];
  const type = stringAt(strategy, 'type');
  if (!type) return [];
  if (!strategyTypes.includes(type)) return [notSupported('spec.strategy', strategy, strategyTypes)];
  const rollingUpdate = objectAt(strategy, 'rollingUpdate');
  if (type === 'Recreate' && strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) {
    return [forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'")];
  }
  return type === 'RollingUpdate' && rollingUpdate ? validateRollingUpdate(rollingUpdate, 'spec.strategy.rollingUpdate') : [];
}

/** ValidateDeploymentSpec. Never mutates. */
export function validateDeployment(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs = validateNonnegativeField(spec?.replicas, 'spec.replicas');
  const selector = objectAt(spec, 'selector') as LabelSelectorObject | undefined;
  if (!selector) errs.push(required('spec.selector', ''));
  else {
    errs.push(...validateLabelSelector(selector, { allowInvalidLabelValueInSelector: false }, 'spec.selector'));
    const count = Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length;
    if (count === 0) errs.push(invalid('spec.selector', selector, 'empty selector is invalid for deployment'));
  }
  let parsable = true;
  try {
    labelSelectorAsSelector(selector ?? null);
  } catch {
    parsable = false;
    errs.push(invalid('spec.selector', selector ?? null, 'invalid label selector'));
  }
  if (parsable) errs.push(...validateTemplate(spec, selector, 'spec.template'));
  errs.push(...validateStrategy(objectAt(spec, 'strategy')));
  const minReady = numberAt(spec, 'minReadySeconds') ?? 0;
  errs.push(...validateNonnegativeField(minReady, 'spec.minReadySeconds'));
  errs.push(...validateNonnegativeField(spec?.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  const deadline = numberAt(spec, 'progressDeadlineSeconds');
  if (deadline !== undefined) {
    errs.push(...validateNonnegativeField(deadline, 'spec.progressDeadlineSeconds'));
    if (deadline <= minReady) errs.push(invalid('spec.progressDeadlineSeconds', deadline, 'must be greater than minReadySeconds'));
  }
  return errs;
}

/** ValidateDeploymentStatusUpdate without metadata: non-negative counts that fit within replicas. */
export function validateDeploymentStatus(obj: KubeObject, old: KubeObject): FieldError[] {
  const status = asObject(obj.status);
  const errs: FieldError[] = [];
  for (const f of ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'terminatingReplicas', 'collisionCount']) {
    errs.push(...validateNonnegativeField(status?.[f], `status.${f}`));
  }
  const n = (f: string): number => numberAt(status, f) ?? 0;
  const msg = 'cannot be greater than status.replicas';
  if (n('updatedReplicas') > n('replicas')) errs.push(invalid('status.updatedReplicas', n('updatedReplicas'), msg));
  if (n('readyReplicas') > n('replicas')) errs.push(invalid('status.readyReplicas', n('readyReplicas'), msg));
  if (n('availableReplicas') > n('replicas')) errs.push(invalid('status.availableReplicas', n('availableReplicas'), msg));
  if (n('availableReplicas') > n('readyReplicas')) errs.push(invalid('status.availableReplicas', n('availableReplicas'), 'cannot be greater than readyReplicas'));
  const oldCollisions = numberAt(asObject(old.status), 'collisionCount');
  const collisions = numberAt(status, 'collisionCount');
  if (oldCollisions !== undefined && (collisions === undefined || collisions < oldCollisions)) {
    errs.push(invalid('status.collisionCount', collisions ?? 0, 'cannot be decremented'));
  }
  return errs;
}
