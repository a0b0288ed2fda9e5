import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestContext } from '../shared/testing.js';
import { serviceAccountStrategy } from './strategy.js';

describe('serviceaccount strategy', () => {
  it('trims secret references to their names on create and update', () => {
    const ctx = requestContext('POST', '/api/v1/namespaces/ns/serviceaccounts');
    const sa = { metadata: { name: 'sa' }, secrets: [{ name: 'tok', namespace: 'other', uid: 'x' }] };
    serviceAccountStrategy.prepareForCreate(ctx, sa);
    assert.deepEqual(sa.secrets, [{ name: 'tok' }]);
    const next = { metadata: { name: 'sa' }, secrets: [{ name: 'b', kind: 'Secret' }] };
    serviceAccountStrategy.prepareForUpdate(ctx, next, sa);
    assert.deepEqual(next.secrets, [{ name: 'b' }]);
  });

  it('creates on update, returns deleted objects and selects by metadata only', () => {
    assert.equal(serviceAccountStrategy.allowCreateOnUpdate, true);
    assert.equal(serviceAccountStrategy.returnDeletedObject, true);
    assert.deepEqual(serviceAccountStrategy.selectableFields, { extra: [], style: 'meta' });
  });
});
