/**
 * Job validation (kube's pkg/apis/batch/validation, the rules users meet): the generated
 * selector and its labels, non-negative counts, completion modes, pod replacement policy, a
 * template whose restartPolicy is OnFailure or Never, and on update an immutable selector,
 * template (scheduling directives excepted while suspended and never started), completion mode
 * and completions (elastic indexed jobs excepted).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childPath, invalid, keyPath, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Label } from '../../../validation/label-values.js';
import { validateImmutableField, validateNonnegativeField } from '../../core/shared/field-immutable.js';
import { asObject, numberAt, objectAt, stringAt, type JsonObject } from '../../core/shared/json-value.js';
import { semanticEqual } from '../../core/shared/semantic-equal.js';
import { selectorMismatchMsg, templateLabels, validatePodTemplateSpec } from '../../shared/pod-template-validation.js';
import { checkLabelSelector } from '../../shared/selector-validation.js';

/** The labels a generated selector relies on (batch.LegacyJobNameLabel ... batch.ControllerUidLabel). */
export const legacyJobNameLabel = 'job-name';
export const jobNameLabel = 'batch.kubernetes.io/job-name';
export const legacyControllerUidLabel = 'controller-uid';
export const controllerUidLabel = 'batch.kubernetes.io/controller-uid';

const maxParallelismForIndexedJob = 100000;
const completionModes = ['NonIndexed', 'Indexed'];
const podReplacementPolicies = ['Failed', 'TerminatingOrFailed'];

function spec(obj: KubeObject): JsonObject | undefined {
  return asObject(obj.spec);
}

/** ValidateHasLabel. */
function validateHasLabel(labels: Record<string, string> | undefined, path: string, key: string, expected: string): FieldError[] {
  const actual = labels?.[key];
  if (actual === undefined) return [required(keyPath(path, key), `must be '${expected}'`)];
  if (actual !== expected) return [invalid(keyPath(path, key), actual, `must be '${expected}'`)];
  return [];
}

/** validateGeneratedSelector with prefixed labels required (every job created since 1.27). */
function validateGeneratedSelector(obj: KubeObject, requirePrefixed: boolean): FieldError[] {
  const s = spec(obj);
  if (s?.manualSelector === true) return [];
  const template = objectAt(s, 'template');
  const labels = objectAt(objectAt(template, 'metadata'), 'labels') as Record<string, string> | undefined;
  if (!labels) return [];
  const errs: FieldError[] = [];
  const uid = obj.metadata.uid ?? '';
  const name = obj.metadata.name ?? '';
  if (!uid) errs.push(required('metadata.uid', ''));
  const selector = objectAt(s, 'selector');
  if (!selector) return [...errs, required('spec.selector', '')];
  const matchLabels = objectAt(selector, 'matchLabels') as Record<string, string> | undefined;
  const lp = 'spec.template.metadata.labels';
  if (requirePrefixed) {
    errs.push(...validateHasLabel(matchLabels, 'spec.selector.matchLabels', controllerUidLabel, uid));
    errs.push(...validateHasLabel(labels, lp, legacyJobNameLabel, name));
    errs.push(...validateHasLabel(labels, lp, legacyControllerUidLabel, uid));
    errs.push(...validateHasLabel(labels, lp, jobNameLabel, name));
    errs.push(...validateHasLabel(labels, lp, controllerUidLabel, uid));
  } else {
    errs.push(...validateHasLabel(matchLabels, 'spec.selector.matchLabels', legacyControllerUidLabel, uid));
    errs.push(...validateHasLabel(labels, lp, legacyJobNameLabel, name));
    errs.push(...validateHasLabel(labels, lp, legacyControllerUidLabel, uid));
  }
  return errs;
}

/**
 * validateJobSpec: what a Job and a CronJob's job template share (counts, completion mode, pod
 * replacement policy, the pod template and its restart policy). path is the spec's path.
 */
export function validateJobSpecCommon(s: JsonObject | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished']) {
    errs.push(...validateNonnegativeField(s?.[f], childPath(path, f)));
  }
  const perIndex = numberAt(s, 'backoffLimitPerIndex');
  const maxFailed = numberAt(s, 'maxFailedIndexes');
  const mode = s?.completionMode;
  if (perIndex !== undefined) {
    errs.push(...validateNonnegativeField(perIndex, childPath(path, 'backoffLimitPerIndex')));
    if (mode !== 'Indexed') errs.push(invalid(childPath(path, 'backoffLimitPerIndex'), perIndex, 'requires indexed completion mode'));
  }
  if (maxFailed !== undefined) {
    errs.push(...validateNonnegativeField(maxFailed, childPath(path, 'maxFailedIndexes')));
    if (perIndex === undefined) errs.push(required(childPath(path, 'backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  }
  if (mode !== undefined && mode !== null) {
    if (typeof mode !== 'string' || !completionModes.includes(mode)) errs.push(notSupported(childPath(path, 'completionMode'), mode, completionModes));
    if (mode === 'Indexed') {
      const completions = numberAt(s, 'completions');
      if (completions === undefined) errs.push(required(childPath(path, 'completions'), 'when completion mode is Indexed'));
      const parallelism = numberAt(s, 'parallelism');
      if (parallelism !== undefined && parallelism > maxParallelismForIndexedJob) {
        errs.push(invalid(childPath(path, 'parallelism'), parallelism, `must be less than or equal to ${maxParallelismForIndexedJob} when completion mode is Indexed`));
      }
    }
  }
  const hasFailurePolicy = s?.podFailurePolicy !== undefined && s.podFailurePolicy !== null;
  const replacement = s?.podReplacementPolicy;
  if (replacement !== undefined && replacement !== null) {
    if (hasFailurePolicy) {
      if (replacement !== 'Failed') errs.push(notSupported(childPath(path, 'podReplacementPolicy'), replacement, ['Failed']));
    } else if (typeof replacement !== 'string' || !podReplacementPolicies.includes(replacement)) {
      errs.push(notSupported(childPath(path, 'podReplacementPolicy'), replacement, podReplacementPolicies));
    }
  }
  const template = objectAt(s, 'template');
  const templatePath = childPath(path, 'template');
  errs.push(...validatePodTemplateSpec(template, templatePath));
  const restartPolicy = stringAt(objectAt(template, 'spec'), 'restartPolicy');
  const rpPath = childPath(templatePath, 'spec', 'restartPolicy');
  if (restartPolicy === 'Always' || restartPolicy === '') errs.push(required(rpPath, 'valid values: "OnFailure", "Never"'));
  else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') errs.push(notSupported(rpPath, restartPolicy, ['OnFailure', 'Never']));
  else if (hasFailurePolicy && restartPolicy !== 'Never') errs.push(invalid(rpPath, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
  return errs;
}

/** ValidateJobSpec: the common rules plus a selector that selects the template's pods. */
function validateJobSpec(s: JsonObject | undefined): FieldError[] {
  const errs = validateJobSpecCommon(s, 'spec');
  const checked = checkLabelSelector(s?.selector, 'spec.selector', { required: true, reportUnparsable: false });
  errs.push(...checked.errs);
  if (checked.selector && checked.raw && !checked.selector.matches(templateLabels(objectAt(s, 'template')))) {
    errs.push(invalid('spec.template.metadata.labels', templateLabels(objectAt(s, 'template')), selectorMismatchMsg));
  }
  return errs;
}

/** ValidateJob for a create (requirePrefixed true) or an update. Never mutates. */
export function validateJob(obj: KubeObject, requirePrefixed = true): FieldError[] {
  const errs = validateGeneratedSelector(obj, requirePrefixed);
  const s = spec(obj);
  errs.push(...validateJobSpec(s));
  const completions = numberAt(s, 'completions');
  if (s?.completionMode === 'Indexed' && completions !== undefined && completions > 0) {
    const hostname = `${obj.metadata.name ?? ''}-${completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) {
      errs.push(invalid('metadata.name', obj.metadata.name ?? '', `will not able to create pod with invalid DNS label: ${hostname}`));
    }
  }
  return errs;
}

/** The template with what a suspended, never-started job may change taken from next (AllowMutableSchedulingDirectives). */
function comparableTemplate(template: unknown, next: unknown, mutable: boolean): unknown {
  if (!mutable) return template;
  const t = structuredClone(asObject(template) ?? {});
  const n = asObject(next) ?? {};
  const tMeta = (asObject(t.metadata) ?? (t.metadata = {})) as JsonObject;
  const nMeta = asObject(n.metadata);
  tMeta.labels = nMeta?.labels;
  tMeta.annotations = nMeta?.annotations;
  const tSpec = (asObject(t.spec) ?? (t.spec = {})) as JsonObject;
  const nSpec = asObject(n.spec);
  for (const f of ['nodeSelector', 'tolerations', 'schedulingGates', 'affinity']) tSpec[f] = nSpec?.[f];
  return t;
}

/** ValidateJobUpdate plus ValidateJob of the new object (the strategy's ValidateUpdate). Never mutates. */
export function validateJobUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const oldLabels = templateLabels(objectAt(spec(old), 'template'));
  const requirePrefixed = jobNameLabel in oldLabels && controllerUidLabel in oldLabels;
  const errs = validateJob(obj, requirePrefixed);
  const s = spec(obj) ?? {};
  const o = spec(old) ?? {};
  errs.push(...validateImmutableField(s.selector, o.selector, 'spec.selector'));
  const mutable = o.suspend === true && !asObject(old.status)?.startTime;
  const oldTemplate = comparableTemplate(o.template, s.template, mutable);
  if (!semanticEqual(s.template, oldTemplate)) errs.push(invalid('spec.template', s.template ?? null, 'field is immutable'));
  errs.push(...validateImmutableField(s.completionMode, o.completionMode, 'spec.completionMode'));
  errs.push(...validateImmutableField(s.podFailurePolicy, o.podFailurePolicy, 'spec.podFailurePolicy'));
  errs.push(...validateImmutableField(s.backoffLimitPerIndex, o.backoffLimitPerIndex, 'spec.backoffLimitPerIndex'));
  errs.push(...validateImmutableField(s.managedBy, o.managedBy, 'spec.managedBy'));
  if (s.completionMode !== 'Indexed') errs.push(...validateImmutableField(s.completions, o.completions, 'spec.completions'));
  else if (!semanticEqual(s.completions, o.completions) && numberAt(s, 'completions') !== undefined && s.completions !== s.parallelism) {
    errs.push(invalid('spec.completions', s.completions, 'can only be modified in tandem with spec.parallelism'));
  }
  return errs;
}

/** The status counts jobs/status may not make negative (part of ValidateJobUpdateStatus). */
export function validateJobStatus(obj: KubeObject): FieldError[] {
  const status = asObject(obj.status);
  const errs: FieldError[] = [];
  for (const f of ['active', 'succeeded', 'failed', 'terminating', 'ready']) errs.push(...validateNonnegativeField(status?.[f], `status.${f}`));
  return errs;
}
