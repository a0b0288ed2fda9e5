import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { filledTokenSecret, isTokenSecretOf, missingTokenData } from './token-secret.js';

const account: KubeObject = { metadata: { name: 'robot', namespace: 'ns', uid: 'sa-uid' } };
const secret = (annotations: Record<string, string>, data?: Record<string, string>): KubeObject => ({
  metadata: { name: 'robot-token', namespace: 'ns', annotations },
  type: 'kubernetes.io/service-account-token',
  ...(data ? { data } : {}),
});
const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('service account token Secrets', () => {
  it('belong to the account they name, and to its uid when they name one', () => {
    assert.equal(isTokenSecretOf(secret({ 'kubernetes.io/service-account.name': 'robot' }), account), true);
    assert.equal(isTokenSecretOf(secret({ 'kubernetes.io/service-account.name': 'robot', 'kubernetes.io/service-account.uid': 'sa-uid' }), account), true);
    assert.equal(isTokenSecretOf(secret({ 'kubernetes.io/service-account.name': 'robot', 'kubernetes.io/service-account.uid': 'old' }), account), false);
    assert.equal(isTokenSecretOf(secret({ 'kubernetes.io/service-account.name': 'other' }), account), false);
    assert.equal(isTokenSecretOf({ ...secret({ 'kubernetes.io/service-account.name': 'robot' }), type: 'Opaque' }, account), false);
  });

  it('get the token, namespace, CA and uid annotation they lack, and nothing when complete', () => {
    const empty = secret({ 'kubernetes.io/service-account.name': 'robot' });
    let calls = 0;
    const filled = filledTokenSecret(empty, account, 'CA PEM', () => {
      calls++;
      return 'tok';
    });
    assert.deepEqual(filled?.data, { 'ca.crt': b64('CA PEM'), namespace: b64('ns'), token: b64('tok') });
    assert.deepEqual(filled?.metadata.annotations, { 'kubernetes.io/service-account.name': 'robot', 'kubernetes.io/service-account.uid': 'sa-uid' });
    assert.equal(empty.data, undefined, 'the input is not mutated');
    assert.equal(filledTokenSecret(filled as KubeObject, account, 'CA PEM', () => 'again'), undefined);
    assert.equal(calls, 1);
    // A token already there is kept; a changed CA is rewritten.
    const rotated = filledTokenSecret(filled as KubeObject, account, 'NEW CA', () => 'unused');
    const data = rotated?.data as Record<string, string>;
    assert.equal(data.token, b64('tok'));
    assert.equal(data['ca.crt'], b64('NEW CA'));
    assert.deepEqual(missingTokenData(filled as KubeObject, undefined), { ca: false, namespace: false, token: false });
  });
});
