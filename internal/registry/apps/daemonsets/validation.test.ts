import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { messages } from '../../shared/testing-messages.js';
import { defaultDaemonSet } from './store.js';
import { validateDaemonSet } from './validation.js';

function ds(spec: Record<string, unknown>): KubeObject {
  const obj: KubeObject = { metadata: { name: 'agent' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'i' }] } }, ...spec } };
  defaultDaemonSet(obj);
  return obj;
}

describe('DaemonSet validation', () => {
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ['a valid daemon set', {}, []],
    [
      'no selector (selects nothing)',
      { selector: undefined },
      ['spec.template.metadata.labels: Invalid value: {"app":"agent"}: `selector` does not match template `labels`'],
    ],
    ['an empty selector', { selector: {} }, ['spec.selector: Invalid value: {}: empty selector is invalid for daemonset']],
    [
      'both maxUnavailable and maxSurge',
      { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } } },
      ['spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero'],
    ],
    [
      'neither maxUnavailable nor maxSurge',
      { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } },
      ['spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0'],
    ],
    [
      'more than 100%',
      { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%', maxSurge: 0 } } },
      ['spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%'],
    ],
    [
      'activeDeadlineSeconds',
      { template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'i' }], activeDeadlineSeconds: 5 } } },
      ['spec.template.spec.activeDeadlineSeconds: Invalid value: 5: activeDeadlineSeconds must be nil for daemons'],
    ],
  ];
  for (const [name, spec, want] of cases) {
    it(name, () => assert.deepEqual(messages(validateDaemonSet(ds(spec))), want));
  }
});
