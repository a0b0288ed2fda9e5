import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { messages } from '../../shared/testing-messages.js';
import { defaultReplicaSet } from './store.js';
import { validateReplicaSet } from './validation.js';

function rs(spec: Record<string, unknown>): KubeObject {
  const obj: KubeObject = { metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } }, ...spec } };
  defaultReplicaSet(obj);
  return obj;
}

describe('ReplicaSet validation', () => {
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ['a valid replica set', {}, []],
    ['negative replicas', { replicas: -2 }, ['spec.replicas: Invalid value: -2: must be greater than or equal to 0']],
    [
      'no selector (required, and nil selects nothing)',
      { selector: undefined },
      ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'],
    ],
    // kube's ReplicaSet validation words this "deployment".
    ['an empty selector', { selector: {} }, ['spec.selector: Invalid value: {}: empty selector is invalid for deployment']],
    [
      'a selector that misses the template',
      { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['db'] }] } },
      ['spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'],
    ],
    [
      'activeDeadlineSeconds',
      { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }], activeDeadlineSeconds: 10 } } },
      ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported'],
    ],
  ];
  for (const [name, spec, want] of cases) {
    it(name, () => assert.deepEqual(messages(validateReplicaSet(rs(spec))), want));
  }
});
