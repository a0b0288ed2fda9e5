/**
 * batch/v1 jobs (STATUS COMPLETIONS DURATION AGE) and cronjobs (SCHEDULE TIMEZONE SUSPEND ACTIVE
 * LAST SCHEDULE AGE), with the wide Containers, Images and Selector columns.
 */
import { creationAge, humanDuration, parseTimestamp, translateTimestampSince } from './ages.js';
import { ageColumn, column, containersColumn, imagesColumn, nameColumn, selectorColumn } from './columns.js';
import { type Json, intAt, listAt, metadataOf, nameOf, objectAt, objectPath, objectsAt, optionalBool, optionalInt, optionalString, stringAt } from './json-fields.js';
import { formatLabelSelector } from './labels.js';
import { podTemplateSpec, templateContainerCells } from './pod-template.js';
import type { TablePrinter } from './types.js';

/** Whether the first condition of type is True (kube's hasJobCondition). */
function hasCondition(conditions: Json[], type: string): boolean {
  const c = conditions.find((cond) => stringAt(cond, 'type') === type);
  return c !== undefined && stringAt(c, 'status') === 'True';
}

function jobStatus(job: Json): string {
  const conditions = objectsAt(objectAt(job, 'status'), 'conditions');
  if (hasCondition(conditions, 'Complete')) return 'Complete';
  if (hasCondition(conditions, 'Failed')) return 'Failed';
  const deletion = metadataOf(job).deletionTimestamp;
  if (deletion !== undefined && deletion !== null) return 'Terminating';
  if (hasCondition(conditions, 'Suspended')) return 'Suspended';
  if (hasCondition(conditions, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

function jobCompletions(spec: Json | undefined, status: Json | undefined): string {
  const succeeded = intAt(status, 'succeeded');
  const completions = optionalInt(spec, 'completions');
  if (completions !== undefined) return `${succeeded}/${completions}`;
  const parallelism = optionalInt(spec, 'parallelism') ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** Start to completion, or start to now while the job runs; '' before it starts. */
function jobDuration(status: Json | undefined, now: Date): string {
  const start = parseTimestamp(status?.startTime);
  if (start === undefined) return '';
  const completion = parseTimestamp(status?.completionTime);
  return humanDuration((completion ?? now.getTime()) - start);
}

/** batch/v1 jobs. */
export const jobPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Status', 'string', 'Whether the job runs, is suspended, completed or failed.'),
    column('Completions', 'string', 'Pods that succeeded over the completions the job needs.'),
    column('Duration', 'string', 'How long the job ran, or has been running.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn('Label selector that picks the pods of the job.'),
  ],
  cells(job, now) {
    const spec = objectAt(job, 'spec');
    const status = objectAt(job, 'status');
    return [
      nameOf(job),
      jobStatus(job),
      jobCompletions(spec, status),
      jobDuration(status, now),
      creationAge(job, now),
      ...templateContainerCells(podTemplateSpec(job, 'spec')),
      formatLabelSelector(spec?.selector),
    ];
  },
};

/** kube's printBoolPtr: "True", "False", or "<unset>" for a missing value. */
function boolPointerText(v: boolean | undefined): string {
  if (v === undefined) return '<unset>';
  return v ? 'True' : 'False';
}

/** batch/v1 cronjobs. */
export const cronJobPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Schedule', 'string', 'The cron schedule jobs are created on.'),
    column('Timezone', 'string', 'The time zone the schedule is read in.'),
    column('Suspend', 'boolean', 'Whether the creation of further jobs is suspended.'),
    column('Active', 'integer', 'Jobs of this cron job that are running now.'),
    column('Last Schedule', 'string', 'How long ago a job was last scheduled.'),
    ageColumn,
    containersColumn,
    imagesColumn,
    selectorColumn('Label selector of the jobs the cron job creates.'),
  ],
  cells(cronJob, now) {
    const spec = objectAt(cronJob, 'spec');
    const status = objectAt(cronJob, 'status');
    const lastSchedule = status?.lastScheduleTime;
    return [
      nameOf(cronJob),
      stringAt(spec, 'schedule'),
      optionalString(spec, 'timeZone') ?? '<none>',
      boolPointerText(optionalBool(spec, 'suspend')),
      listAt(status, 'active').length,
      lastSchedule === undefined || lastSchedule === null ? '<none>' : translateTimestampSince(lastSchedule, now),
      creationAge(cronJob, now),
      ...templateContainerCells(podTemplateSpec(cronJob, 'spec', 'jobTemplate', 'spec')),
      formatLabelSelector(objectPath(cronJob, 'spec', 'jobTemplate', 'spec')?.selector),
    ];
  },
};
