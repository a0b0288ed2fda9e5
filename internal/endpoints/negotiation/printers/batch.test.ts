/** batch/v1 jobs and cronjobs: column definitions and cells as kube prints them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cronJobPrinter, jobPrinter } from './batch.js';
import { ago, columnSpec, day, hour, minute, now } from './testing.js';

type J = Record<string, unknown>;

const template = { spec: { containers: [{ name: 'pi', image: 'perl:5.34' }] } };

function job(spec: J, status: J, metadata: J = {}): J {
  return { metadata: { name: 'pi', creationTimestamp: ago(10 * minute), ...metadata }, spec: { template, selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u1' } }, ...spec }, status };
}

describe('jobs', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(jobPrinter), [
      ['Name', 'string', 'name', 0],
      ['Status', 'string', '', 0],
      ['Completions', 'string', '', 0],
      ['Duration', 'string', '', 0],
      ['Age', 'string', '', 0],
      ['Containers', 'string', '', 1],
      ['Images', 'string', '', 1],
      ['Selector', 'string', '', 1],
    ]);
  });
  it('print a complete job with its duration from start to completion', () => {
    const j = job({ completions: 1 }, { succeeded: 1, startTime: ago(10 * minute), completionTime: ago(10 * minute - 75), conditions: [{ type: 'Complete', status: 'True' }] });
    assert.deepEqual(jobPrinter.cells(j, now), ['pi', 'Complete', '1/1', '75s', '10m', 'pi', 'perl:5.34', 'batch.kubernetes.io/controller-uid=u1']);
  });
  it('measure a running job against now', () => {
    const j = job({ completions: 5, parallelism: 2 }, { succeeded: 2, active: 2, startTime: ago(3 * hour + 5 * minute) });
    assert.deepEqual(jobPrinter.cells(j, now).slice(1, 4), ['Running', '2/5', '3h5m']);
  });
  it('print completions without spec.completions by parallelism', () => {
    assert.equal(jobPrinter.cells(job({ parallelism: 3 }, { succeeded: 1 }), now)[2], '1/1 of 3');
    assert.equal(jobPrinter.cells(job({ parallelism: 1 }, {}), now)[2], '0/1');
    assert.equal(jobPrinter.cells(job({}, {}), now)[2], '0/1');
  });
  it('print no duration before the job starts', () => {
    assert.equal(jobPrinter.cells(job({ completions: 1 }, {}), now)[3], '');
  });
  it('take the status from the first condition of each type, in kube order', () => {
    const status = (conditions: J[], metadata: J = {}): unknown => jobPrinter.cells(job({ completions: 1 }, { conditions }, metadata), now)[1];
    assert.equal(status([{ type: 'Failed', status: 'True' }]), 'Failed');
    assert.equal(status([{ type: 'Complete', status: 'False' }, { type: 'Complete', status: 'True' }]), 'Running');
    assert.equal(status([{ type: 'Suspended', status: 'True' }], { deletionTimestamp: ago(5) }), 'Terminating');
    assert.equal(status([{ type: 'Suspended', status: 'True' }]), 'Suspended');
    assert.equal(status([{ type: 'FailureTarget', status: 'True' }]), 'FailureTarget');
    assert.equal(status([{ type: 'Complete', status: 'True' }], { deletionTimestamp: ago(5) }), 'Complete');
  });
});

describe('cronjobs', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(cronJobPrinter), [
      ['Name', 'string', 'name', 0],
      ['Schedule', 'string', '', 0],
      ['Timezone', 'string', '', 0],
      ['Suspend', 'boolean', '', 0],
      ['Active', 'integer', '', 0],
      ['Last Schedule', 'string', '', 0],
      ['Age', 'string', '', 0],
      ['Containers', 'string', '', 1],
      ['Images', 'string', '', 1],
      ['Selector', 'string', '', 1],
    ]);
  });
  it('print schedule, time zone, suspend, active jobs and last schedule', () => {
    const cj = {
      metadata: { name: 'hello', creationTimestamp: ago(2 * day) },
      spec: { schedule: '*/5 * * * *', timeZone: 'Europe/Paris', suspend: false, jobTemplate: { spec: { template } } },
      status: { active: [{ kind: 'Job', name: 'hello-1' }], lastScheduleTime: ago(4 * minute) },
    };
    assert.deepEqual(cronJobPrinter.cells(cj, now), ['hello', '*/5 * * * *', 'Europe/Paris', 'False', 1, '4m', '2d', 'pi', 'perl:5.34', '<none>']);
  });
  it('print <none> and <unset> for what is not set', () => {
    const cj = { metadata: { name: 'x' }, spec: { schedule: '@hourly', jobTemplate: { spec: { template, selector: { matchLabels: { a: 'b' } } } } } };
    assert.deepEqual(cronJobPrinter.cells(cj, now), ['x', '@hourly', '<none>', '<unset>', 0, '<none>', '<unknown>', 'pi', 'perl:5.34', 'a=b']);
    assert.equal(cronJobPrinter.cells({ metadata: {}, spec: { suspend: true } }, now)[3], 'True');
  });
});
