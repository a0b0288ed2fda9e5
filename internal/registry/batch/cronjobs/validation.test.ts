import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { messages } from '../../shared/testing-messages.js';
import { defaultCronJob } from './defaults.js';
import { validateCronJob, validateCronJobUpdate } from './validation.js';

function cronJob(spec: Record<string, unknown>, name = 'cj'): KubeObject {
  const obj: KubeObject = {
    metadata: { name },
    spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'OnFailure' } } } }, ...spec },
  };
  defaultCronJob(obj);
  return obj;
}

describe('CronJob validation', () => {
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ['a valid cron job', {}, []],
    ['a missing schedule', { schedule: '' }, ['spec.schedule: Required value']],
    ['a bad schedule', { schedule: '61 * * * *' }, ['spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61']],
    ['TZ in the schedule', { schedule: 'TZ=UTC 0 * * * *' }, ['spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead']],
    ['an unknown time zone', { timeZone: 'Mars/Olympus' }, ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus']],
    ['a bad concurrency policy', { concurrencyPolicy: 'Sometimes' }, ['spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"']],
    ['negative history limits', { successfulJobsHistoryLimit: -1 }, ['spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0']],
    [
      'a job template with a selector',
      { jobTemplate: { spec: { selector: { matchLabels: { a: 'b' } }, template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' } } } } },
      ['spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated'],
    ],
    [
      'a job template that restarts always',
      { jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Always' } } } } },
      ['spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"'],
    ],
  ];
  for (const [name, spec, want] of cases) {
    it(name, () => assert.deepEqual(messages(validateCronJob(cronJob(spec))), want));
  }

  it('limits names to 52 characters on create only', () => {
    const long = cronJob({}, 'a'.repeat(53));
    assert.deepEqual(messages(validateCronJob(long)), [`metadata.name: Invalid value: "${'a'.repeat(53)}": must be no more than 52 characters`]);
    assert.deepEqual(messages(validateCronJobUpdate(long, long)), []);
  });

  it('defaults concurrency, suspension, history limits and the pod template', () => {
    const obj: KubeObject = { metadata: { name: 'd' }, spec: { schedule: '@daily', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }] } } } } } };
    defaultCronJob(obj);
    const spec = obj.spec as Record<string, any>;
    assert.equal(spec.concurrencyPolicy, 'Allow');
    assert.equal(spec.suspend, false);
    assert.equal(spec.successfulJobsHistoryLimit, 3);
    assert.equal(spec.failedJobsHistoryLimit, 1);
    assert.equal(spec.jobTemplate.spec.template.spec.dnsPolicy, 'ClusterFirst');
    assert.equal(spec.jobTemplate.spec.completions, undefined);
  });
});
