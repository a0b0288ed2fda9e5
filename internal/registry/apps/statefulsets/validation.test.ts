import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { messages } from '../../shared/testing-messages.js';
import { defaultStatefulSet } from './store.js';
import { validateStatefulSet, validateStatefulSetUpdate } from './validation.js';

function sts(spec: Record<string, unknown>): KubeObject {
  const obj: KubeObject = { metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } }, ...spec } };
  defaultStatefulSet(obj);
  return obj;
}

describe('StatefulSet validation', () => {
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ['a valid stateful set', {}, []],
    ['negative replicas', { replicas: -1 }, ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
    [
      'no selector (required, and nil selects nothing)',
      { selector: undefined },
      ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'],
    ],
    ['an empty selector', { selector: {} }, ['spec.selector: Invalid value: {}: empty selector is invalid for statefulset']],
    [
      'a selector that misses the template',
      { selector: { matchLabels: { app: 'db' } } },
      ['spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'],
    ],
    ['an unknown pod management policy', { podManagementPolicy: 'Random' }, ["spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'"]],
    [
      'restartPolicy OnFailure',
      { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }], restartPolicy: 'OnFailure' } } },
      ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'],
    ],
    ['a negative partition', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: -1 } } }, ['spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0']],
  ];
  for (const [name, spec, want] of cases) {
    it(name, () => assert.deepEqual(messages(validateStatefulSet(sts(spec))), want));
  }

  it('forbids changing anything but the updatable fields', () => {
    const old = sts({});
    assert.deepEqual(messages(validateStatefulSetUpdate(sts({ replicas: 5 }), old)), []);
    assert.deepEqual(messages(validateStatefulSetUpdate(sts({ serviceName: 'other' }), old)), [
      "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    ]);
  });
});
