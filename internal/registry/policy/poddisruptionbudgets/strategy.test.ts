import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messages } from '../../shared/testing-messages.js';
import { validatePodDisruptionBudget } from './strategy.js';

describe('PodDisruptionBudget validation', () => {
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ['minAvailable', { minAvailable: 1, selector: { matchLabels: { a: 'b' } } }, []],
    ['maxUnavailable as a percentage', { maxUnavailable: '50%' }, []],
    ['both', { minAvailable: 1, maxUnavailable: 1 }, ['spec: Invalid value: {"minAvailable":1,"maxUnavailable":1}: minAvailable and maxUnavailable cannot be both set']],
    ['a negative count', { minAvailable: -1 }, ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']],
    ['more than 100%', { maxUnavailable: '101%' }, ['spec.maxUnavailable: Invalid value: "101%": must not be greater than 100%']],
    [
      'a malformed percentage',
      { minAvailable: '5x' },
      ["spec.minAvailable: Invalid value: \"5x\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"],
    ],
    ['an unknown eviction policy', { unhealthyPodEvictionPolicy: 'Never' }, ['spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"']],
  ];
  for (const [name, spec, want] of cases) {
    it(name, () => assert.deepEqual(messages(validatePodDisruptionBudget({ metadata: { name: 'p' }, spec })), want));
  }
});
