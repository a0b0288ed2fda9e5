import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { messages } from '../../shared/testing-messages.js';
import { defaultPriorityClass, validatePriorityClass, validatePriorityClassUpdate } from './strategy.js';

describe('PriorityClass validation', () => {
  it('reserves system- names for kube\'s classes with their values', () => {
    assert.deepEqual(messages(validatePriorityClass({ metadata: { name: 'system-node-critical' }, value: 2000001000 })), []);
    assert.deepEqual(messages(validatePriorityClass({ metadata: { name: 'system-node-critical' }, value: 5 })), [
      "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000",
    ]);
    assert.deepEqual(messages(validatePriorityClass({ metadata: { name: 'system-mine' }, value: 5 })), [
      "metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
    ]);
  });

  it('caps user priorities and checks the preemption policy', () => {
    assert.deepEqual(messages(validatePriorityClass({ metadata: { name: 'high' }, value: 1000000001, preemptionPolicy: 'Sometimes' })), [
      'value: Forbidden: maximum allowed value of a user defined priority is 1000000000',
      'preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"',
    ]);
  });

  it('keeps value and preemptionPolicy fixed, and defaults the policy', () => {
    const old: KubeObject = { metadata: { name: 'high' }, value: 10 };
    defaultPriorityClass(old);
    assert.equal(old.preemptionPolicy, 'PreemptLowerPriority');
    assert.deepEqual(messages(validatePriorityClassUpdate({ ...old, value: 11, preemptionPolicy: 'Never' }, old)), [
      'value: Forbidden: may not be changed in an update.',
      'preemptionPolicy: Invalid value: "Never": field is immutable',
    ]);
  });
});
