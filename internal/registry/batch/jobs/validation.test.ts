import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { messages } from '../../shared/testing-messages.js';
import { defaultJob } from './defaults.js';
import { validateJob, validateJobUpdate } from './validation.js';

const podSpec = { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'Never' };

/** A manual-selector job (no generated labels needed), defaulted. */
function job(spec: Record<string, unknown>): KubeObject {
  const obj: KubeObject = {
    metadata: { name: 'j', uid: 'u' },
    spec: { manualSelector: true, selector: { matchLabels: { app: 'j' } }, template: { metadata: { labels: { app: 'j' } }, spec: podSpec }, ...spec },
  };
  defaultJob(obj);
  return obj;
}

describe('Job validation', () => {
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ['a valid job', {}, []],
    ['negative completions', { completions: -1 }, ['spec.completions: Invalid value: -1: must be greater than or equal to 0']],
    ['negative parallelism', { parallelism: -3 }, ['spec.parallelism: Invalid value: -3: must be greater than or equal to 0']],
    ['a negative backoff limit', { backoffLimit: -1 }, ['spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0']],
    ['an unknown completion mode', { completionMode: 'Sometimes' }, ['spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"']],
    ['restartPolicy Always', { template: { metadata: { labels: { app: 'j' } }, spec: { ...podSpec, restartPolicy: 'Always' } } }, ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']],
    ['no selector', { selector: undefined }, ['spec.selector: Required value']],
    [
      'a selector that misses the template',
      { selector: { matchLabels: { app: 'other' } } },
      ['spec.template.metadata.labels: Invalid value: {"app":"j"}: `selector` does not match template `labels`'],
    ],
    ['an unknown pod replacement policy', { podReplacementPolicy: 'Never' }, ['spec.podReplacementPolicy: Unsupported value: "Never": supported values: "Failed", "TerminatingOrFailed"']],
  ];
  for (const [name, spec, want] of cases) {
    it(name, () => assert.deepEqual(messages(validateJob(job(spec))), want));
  }

  it('requires the generated selector labels without manualSelector', () => {
    const obj: KubeObject = { metadata: { name: 'g', uid: 'u1' }, spec: { selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'u1' } }, template: { metadata: { labels: { 'batch.kubernetes.io/controller-uid': 'u1', 'batch.kubernetes.io/job-name': 'g', 'job-name': 'g' } }, spec: podSpec } } };
    defaultJob(obj);
    assert.deepEqual(messages(validateJob(obj)), ["spec.template.metadata.labels[controller-uid]: Required value: must be 'u1'"]);
  });

  it('keeps the selector, template and completions immutable', () => {
    const old = job({});
    const next = job({ completions: 3, template: { metadata: { labels: { app: 'j' } }, spec: { ...podSpec, restartPolicy: 'OnFailure' } } });
    const msgs = messages(validateJobUpdate(next, old));
    assert.equal(msgs.length, 2);
    assert.match(msgs[0] as string, /^spec\.template: Invalid value: .*: field is immutable$/);
    assert.equal(msgs[1], 'spec.completions: Invalid value: 3: field is immutable');
  });

  it('lets a suspended job that never started change its scheduling directives', () => {
    const old = job({ suspend: true });
    const next = job({ suspend: true, template: { metadata: { labels: { app: 'j' } }, spec: { ...podSpec, nodeSelector: { zone: 'a' } } } });
    assert.deepEqual(messages(validateJobUpdate(next, old)), []);
  });

  it('defaults a parallel job without completions to parallelism alone', () => {
    const obj: KubeObject = { metadata: { name: 'p' }, spec: { parallelism: 3, template: { spec: podSpec } } };
    defaultJob(obj);
    const spec = obj.spec as Record<string, unknown>;
    assert.equal(spec.completions, undefined);
    assert.equal(spec.parallelism, 3);
    assert.equal(spec.backoffLimit, 6);
  });
});
