/**
 * batch/v1 Job defaulting (kube's SetObjectDefaults_Job): completions and parallelism 1 for a
 * non-parallel job, backoffLimit 6 (MaxInt32 with backoffLimitPerIndex), completionMode
 * NonIndexed, suspend false, manualSelector false, podReplacementPolicy by podFailurePolicy,
 * pod failure condition status True, labels from the template, and the template's pod defaults.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childObject, isNil, isEmptyString, objectsIn } from '../../core/shared/defaults-values.js';
import { defaultPodTemplateSpec } from '../../core/shared/pod-defaults.js';

const maxInt32 = 2147483647;

/** The parts of SetDefaults_Job that apply to any JobSpec; mutates spec. Used by jobs only (cron job templates get pod defaults alone). */
function defaultJobSpec(spec: Record<string, unknown>): void {
  if (isNil(spec.completions) && isNil(spec.parallelism)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  if (isNil(spec.parallelism)) spec.parallelism = 1;
  if (isNil(spec.backoffLimit)) spec.backoffLimit = isNil(spec.backoffLimitPerIndex) ? 6 : maxInt32;
  if (isNil(spec.completionMode)) spec.completionMode = 'NonIndexed';
  if (isNil(spec.suspend)) spec.suspend = false;
  const podFailurePolicy = childObject(spec, 'podFailurePolicy');
  for (const rule of objectsIn(podFailurePolicy, 'rules')) {
    for (const pattern of objectsIn(rule, 'onPodConditions')) if (isEmptyString(pattern.status)) pattern.status = 'True';
  }
  if (isNil(spec.podReplacementPolicy)) spec.podReplacementPolicy = podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  if (isNil(spec.manualSelector)) spec.manualSelector = false;
}

/**
 * Defaults a batch/v1 Job in place. When the job has no labels it takes the template's: the same
 * map, as in Go, so the selector labels generated on create show in both.
 */
export function defaultJob(obj: KubeObject): void {
  if (isNil(obj.spec)) obj.spec = {};
  const spec = childObject(obj, 'spec');
  if (!spec) return;
  defaultJobSpec(spec);
  if (isNil(spec.template)) spec.template = {};
  const template = childObject(spec, 'template');
  if (!template) return;
  const labels = childObject(childObject(template, 'metadata'), 'labels');
  if (labels && Object.keys(obj.metadata.labels ?? {}).length === 0) obj.metadata.labels = labels as Record<string, string>;
  defaultPodTemplateSpec(template);
}
