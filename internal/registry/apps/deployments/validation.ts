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
import { validateNonnegativeField } from '../../core/shared/field-immutable.js';
import { asObject, numberAt, objectAt, stringAt, type JsonObject } from '../../core/shared/json-value.js';
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
  const restartPolicy = stringAt(podSpec, 'restartPolicy');
  if (restartPolicy && restartPolicy !== 'Always') errs.push(notSupported(`${path}.spec.restartPolicy`, restartPolicy, ['Always']));
  if (podSpec?.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
    errs.push(forbidden(`${path}.spec.activeDeadlineSeconds`, 'activeDeadlineSeconds in ReplicaSet is not Supported'));
  }
  return errs;
}

function validateStrategy(strategy: JsonObject | undefined): FieldError[] {
  if (!strategy) return [];
  const type = stringAt(strategy, 'type');
  if (!type) return [];
  if (!strategyTypes.includes(type)) return [notSupported('spec.strategy', strategy, strategyTypes)];
  if (type === 'Recreate' && strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) {
    return [forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'")];
  }
  return [];
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
