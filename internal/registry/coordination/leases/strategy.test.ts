import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorMessage } from '../../../validation/field-error.js';
import { requestContext } from '../../core/shared/testing.js';
import { leaseStrategy } from './strategy.js';

const ctx = requestContext('POST', '/apis/coordination.k8s.io/v1/namespaces/ns/leases');

describe('lease strategy', () => {
  it('checks durations and transitions', () => {
    assert.deepEqual(leaseStrategy.validate(ctx, { metadata: { name: 'l' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0 } }), []);
    assert.deepEqual(leaseStrategy.validate(ctx, { metadata: { name: 'l' }, spec: { leaseDurationSeconds: 0, leaseTransitions: -1 } }).map(fieldErrorMessage), [
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('drops the coordinated-leader-election fields unless already in use', () => {
    const obj = { metadata: { name: 'l' }, spec: { holderIdentity: 'a', strategy: 'OldestEmulationVersion', preferredHolder: 'b' } };
    leaseStrategy.prepareForCreate(ctx, obj);
    assert.deepEqual(obj.spec, { holderIdentity: 'a' });
    const old = { metadata: { name: 'l' }, spec: { strategy: 'OldestEmulationVersion' } };
    const next = { metadata: { name: 'l' }, spec: { strategy: 'OldestEmulationVersion', preferredHolder: 'b' } };
    leaseStrategy.prepareForUpdate(ctx, next, old);
    assert.deepEqual(next.spec, { strategy: 'OldestEmulationVersion' });
  });

  it('creates on update but never updates unconditionally', () => {
    assert.equal(leaseStrategy.allowCreateOnUpdate, true);
    assert.equal(leaseStrategy.allowUnconditionalUpdate, false);
  });
});
