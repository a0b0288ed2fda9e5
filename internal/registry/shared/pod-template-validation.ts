/**
 * Pod template checks shared by the workload resources (kube's ValidatePodTemplateSpec and the
 * ValidatePodTemplateSpecFor* variants of replica sets, stateful sets, daemon sets, replication
 * controllers and jobs): template labels and annotations, the pod spec, the selector matching
 * the template's labels, and the restart policies a controller can run.
 */
import type { LabelSelector } from '../../selectors/labels.js';
import { validateLabels } from '../../selectors/label-selector-object.js';
import { childPath, forbidden, invalid, notSupported, required, type FieldError } from '../../validation/field-error.js';
import { validateAnnotations } from '../generic/object-meta-validation.js';
import { arrayAt, asObject, objectAt, stringAt, type JsonObject } from '../core/shared/json-value.js';
import { validatePodSpec } from '../core/shared/pod-spec.js';

/** kube's message when a controller's selector does not select its own pods. */
export const selectorMismatchMsg = '`selector` does not match template `labels`';

/** The template's labels as a map ({} when absent). */
export function templateLabels(template: JsonObject | undefined): Record<string, string> {
  return (objectAt(objectAt(template, 'metadata'), 'labels') ?? {}) as Record<string, string>;
}

/** ValidatePodTemplateSpec: labels and annotations (kube names them <path>.labels), the pod spec, no ephemeral containers. */
export function validatePodTemplateSpec(template: JsonObject | undefined, path: string): FieldError[] {
  const meta = objectAt(template, 'metadata');
  const errs = validateLabels(objectAt(meta, 'labels') as Record<string, string> | undefined, childPath(path, 'labels'));
  errs.push(...validateAnnotations(meta?.annotations, childPath(path, 'annotations')));
  const spec = objectAt(template, 'spec');
  errs.push(...validatePodSpec(spec, childPath(path, 'spec'), { isPod: false }));
  if (arrayAt(spec, 'ephemeralContainers').length > 0) {
    errs.push(forbidden(childPath(path, 'spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

/** How a controller's template is checked. */
export interface ControllerTemplateOptions {
  /** The kind named in "activeDeadlineSeconds in <Kind> is not Supported". */
  readonly kind: string;
  /** DaemonSets word the activeDeadlineSeconds refusal differently. */
  readonly activeDeadline?: 'forbidden' | 'daemon';
}

/**
 * ValidatePodTemplateSpecFor{ReplicaSet,StatefulSet,RC} and the DaemonSet checks: the template
 * exists, a non-empty selector matches its labels, it is a valid pod template, restartPolicy is
 * Always and there is no activeDeadlineSeconds. selector undefined means "not parsable", already
 * reported by the caller.
 */
export function validateControllerTemplate(
  template: JsonObject | undefined,
  selector: LabelSelector | undefined,
  path: string,
  opts: ControllerTemplateOptions,
): FieldError[] {
  if (!template) return [required(path, '')];
  const errs: FieldError[] = [];
  const labels = templateLabels(template);
  if (selector && !selector.empty() && !selector.matches(labels)) {
    errs.push(invalid(childPath(path, 'metadata', 'labels'), labels, selectorMismatchMsg));
  }
  errs.push(...validatePodTemplateSpec(template, path));
  const spec = objectAt(template, 'spec');
  const restartPolicy = stringAt(spec, 'restartPolicy');
  if (restartPolicy !== 'Always') errs.push(notSupported(childPath(path, 'spec', 'restartPolicy'), restartPolicy, ['Always']));
  const ads = spec?.activeDeadlineSeconds;
  if (ads !== undefined && ads !== null) {
    errs.push(
      opts.activeDeadline === 'daemon'
        ? invalid(childPath(path, 'spec', 'activeDeadlineSeconds'), ads, 'activeDeadlineSeconds must be nil for daemons')
        : forbidden(childPath(path, 'spec', 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${opts.kind} is not Supported`),
    );
  }
  return errs;
}

/** The template object of a workload spec, or undefined. */
export function templateOf(spec: JsonObject | undefined): JsonObject | undefined {
  return asObject(spec?.template);
}
