/**
 * batch/v1 CronJob defaulting (kube's SetObjectDefaults_CronJob): concurrencyPolicy Allow,
 * suspend false, successfulJobsHistoryLimit 3, failedJobsHistoryLimit 1, and the pod defaults of
 * the job template's pod template (the job spec itself is defaulted only when a Job is made).
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { childObject, isEmptyString, isNil } from '../../core/shared/defaults-values.js';
import { defaultPodTemplateSpec } from '../../core/shared/pod-defaults.js';

/** Defaults a batch/v1 CronJob in place. Mutates obj; idempotent. */
export function defaultCronJob(obj: KubeObject): void {
  if (isNil(obj.spec)) obj.spec = {};
  const spec = childObject(obj, 'spec');
  if (!spec) return;
  if (isEmptyString(spec.concurrencyPolicy)) spec.concurrencyPolicy = 'Allow';
  if (isNil(spec.suspend)) spec.suspend = false;
  if (isNil(spec.successfulJobsHistoryLimit)) spec.successfulJobsHistoryLimit = 3;
  if (isNil(spec.failedJobsHistoryLimit)) spec.failedJobsHistoryLimit = 1;
  if (isNil(spec.jobTemplate)) spec.jobTemplate = {};
  const jobTemplate = childObject(spec, 'jobTemplate');
  if (!jobTemplate) return;
  if (isNil(jobTemplate.spec)) jobTemplate.spec = {};
  const jobSpec = childObject(jobTemplate, 'spec');
  if (!jobSpec) return;
  if (isNil(jobSpec.template)) jobSpec.template = {};
  const template = childObject(jobSpec, 'template');
  if (template) defaultPodTemplateSpec(template);
}
