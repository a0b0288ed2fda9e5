import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorMessage } from '../../../validation/field-error.js';
import { validatePodSpecUpdate } from './pod-update.js';

const base = { containers: [{ name: 'a', image: 'x' }], schedulingGates: [{ name: 'wait' }], nodeSelector: { zone: 'a' } };

describe('pod update: gated pods', () => {
  it('may gain node selector terms while gated', () => {
    assert.deepEqual(validatePodSpecUpdate({ ...base, nodeSelector: { zone: 'a', disk: 'ssd' } }, base), []);
  });

  it('may not change or drop node selector terms', () => {
    assert.deepEqual(validatePodSpecUpdate({ ...base, nodeSelector: { zone: 'b' } }, base).map(fieldErrorMessage), [
      'spec.nodeSelector: Invalid value: {"zone":"b"}: only additions to spec.nodeSelector are allowed (no mutations or deletions)',
    ]);
  });

  it('keeps the selector immutable once the pod is no longer gated', () => {
    const ungated = { containers: base.containers, nodeSelector: { zone: 'a' } };
    const errs = validatePodSpecUpdate({ ...ungated, nodeSelector: { zone: 'a', disk: 'ssd' } }, ungated).map(fieldErrorMessage);
    assert.equal(errs.length, 1);
    assert.match(errs[0] ?? '', /^spec: Forbidden: pod updates may not change fields other than/);
  });
});
