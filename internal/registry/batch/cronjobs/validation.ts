/**
 * CronJob validation (kube's ValidateCronJobCreate / ValidateCronJobUpdate): a schedule in
 * standard cron syntax without TZ (use timeZone), a known time zone, a concurrency policy, non
 * negative history limits and deadline, a job template whose selector is left to be generated,
 * and names short enough for the jobs they spawn.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { validateNonnegativeField } from '../../core/shared/field-immutable.js';
import { asObject, objectAt, stringAt, type JsonObject } from '../../core/shared/json-value.js';
import { validateJobSpecCommon } from '../jobs/validation.js';
import { cronScheduleError, isKnownTimeZone } from './schedule.js';

const concurrencyPolicies = ['Allow', 'Forbid', 'Replace'];
const validTimeZoneCharacters = /^[A-Za-z.\-_0-9+]{1,14}$/;

function validateScheduleFormat(schedule: string, allowTZInSchedule: boolean, timeZone: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const parseError = cronScheduleError(schedule);
  if (parseError) errs.push(invalid('spec.schedule', schedule, parseError));
  if (allowTZInSchedule && schedule.includes('TZ') && timeZone !== undefined && timeZone !== null) {
    errs.push(invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  } else if (!allowTZInSchedule && schedule.includes('TZ')) {
    errs.push(invalid('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  return errs;
}

function validateTimeZone(timeZone: unknown): FieldError[] {
  if (timeZone === undefined || timeZone === null) return [];
  const tz = String(timeZone);
  if (tz.length === 0) return [invalid('spec.timeZone', tz, 'timeZone must be nil or non-empty string')];
  for (const part of tz.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !validTimeZoneCharacters.test(part)) {
      return [invalid('spec.timeZone', tz, `unknown time zone ${tz}`)];
    }
  }
  const errs: FieldError[] = [];
  if (tz.toLowerCase() === 'local') {
    errs.push(invalid('spec.timeZone', tz, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  }
  if (!isKnownTimeZone(tz)) errs.push(invalid('spec.timeZone', tz, `unknown time zone ${tz}`));
  return errs;
}

/** ValidateJobTemplateSpec: the job rules, with the selector left for the controller to generate. */
function validateJobTemplate(template: JsonObject | undefined): FieldError[] {
  const spec = objectAt(template, 'spec');
  const errs = validateJobSpecCommon(spec, 'spec.jobTemplate.spec');
  if (spec?.selector !== undefined && spec.selector !== null) {
    errs.push(invalid('spec.jobTemplate.spec.selector', spec.selector, '`selector` will be auto-generated'));
  }
  if (spec?.manualSelector === true) errs.push(notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
  return errs;
}

/** validateCronJobSpec; oldSpec is the stored spec on update. Never mutates. */
function validateCronJobSpec(spec: JsonObject | undefined, oldSpec: JsonObject | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const schedule = stringAt(spec, 'schedule');
  if (!schedule) errs.push(required('spec.schedule', ''));
  else errs.push(...validateScheduleFormat(schedule, oldSpec ? stringAt(oldSpec, 'schedule').includes('TZ') : false, spec?.timeZone));
  errs.push(...validateNonnegativeField(spec?.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  if (!oldSpec || oldSpec.timeZone !== spec?.timeZone) errs.push(...validateTimeZone(spec?.timeZone));
  const policy = stringAt(spec, 'concurrencyPolicy');
  if (!policy) errs.push(required('spec.concurrencyPolicy', ''));
  else if (!concurrencyPolicies.includes(policy)) errs.push(notSupported('spec.concurrencyPolicy', policy, concurrencyPolicies));
  errs.push(...validateJobTemplate(objectAt(spec, 'jobTemplate')));
  errs.push(...validateNonnegativeField(spec?.successfulJobsHistoryLimit, 'spec.successfulJobsHistoryLimit'));
  errs.push(...validateNonnegativeField(spec?.failedJobsHistoryLimit, 'spec.failedJobsHistoryLimit'));
  return errs;
}

/** ValidateCronJobCreate without metadata: the spec and the 52-character name limit. */
export function validateCronJob(obj: KubeObject): FieldError[] {
  const errs = validateCronJobSpec(asObject(obj.spec), undefined);
  const name = obj.metadata.name ?? '';
  // The controller appends an 11-character suffix to name each job, and job names are DNS-1035 labels.
  if (name.length > 63 - 11) errs.push(invalid('metadata.name', name, 'must be no more than 52 characters'));
  return errs;
}

/** ValidateCronJobUpdate without metadata (the name limit is not applied again). */
export function validateCronJobUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  return validateCronJobSpec(asObject(obj.spec), asObject(old.spec) ?? {});
}
