import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messages } from '../../shared/testing-messages.js';
import { validateResourceQuota } from './validation.js';

describe('ResourceQuota validation', () => {
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ['standard resources', { hard: { cpu: '2', 'requests.memory': '1Gi', pods: '10', 'count/deployments.apps': '3' } }, []],
    ['a negative quantity', { hard: { cpu: '-1' } }, ['spec.hard[cpu]: Invalid value: "-1": must be greater than or equal to 0']],
    ['a fractional object count', { hard: { pods: '1.5' } }, ['spec.hard[pods]: Invalid value: "1.5": must be an integer']],
    ['an unknown resource', { hard: { gpus: '1' } }, ['spec.hard[gpus]: Invalid value: "gpus": must be a standard resource for quota']],
    ['an unknown scope', { scopes: ['Forever'] }, ['spec.scopes: Invalid value: []string{"Forever"}: unsupported scope']],
  ];
  for (const [name, spec, want] of cases) {
    it(name, () => assert.deepEqual(messages(validateResourceQuota({ metadata: { name: 'q' }, spec })), want));
  }
});
