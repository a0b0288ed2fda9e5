import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta/types.js';
import { createLogger } from '../observability/logging.js';
import { bootstrapGroups, BootstrapTokenAuthenticator } from './bootstrap-token.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const now = Date.parse('2030-01-01T00:00:00Z');

function secret(id: string, data: Record<string, string>, extra: Partial<KubeObject> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' },
    type: 'bootstrap.kubernetes.io/token',
    data: Object.fromEntries(Object.entries({ 'token-id': id, 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', ...data }).map(([k, v]) => [k, b64(v)])),
    ...extra,
  } as KubeObject;
}

function authenticator(...secrets: KubeObject[]): BootstrapTokenAuthenticator {
  const byKey = new Map(secrets.map((s) => [`${s.metadata.namespace}/${s.metadata.name}`, s]));
  return new BootstrapTokenAuthenticator({ get: (k: string) => byKey.get(k) }, createLogger(0, true), () => now);
}

describe('bootstrap token authenticator', () => {
  it('names system:bootstrap:<id> in system:bootstrappers and the extra groups, sorted', () => {
    const a = authenticator(secret('abcdef', { 'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:a-b', expiration: '2030-01-02T00:00:00Z' }));
    assert.deepEqual(a.authenticateToken('abcdef.0123456789abcdef'), {
      user: { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:a-b', 'system:bootstrappers:worker'] },
    });
  });

  it('has no opinion on tokens of another shape or without a Secret', () => {
    const a = authenticator(secret('abcdef', {}));
    for (const t of ['abcdef.0123456789abcde', 'ABCDEF.0123456789abcdef', 'abcdef0123456789abcdef', 'abcdef.0123456789abcdef ', 'zzzzzz.0123456789abcdef']) {
      assert.equal(a.authenticateToken(t), undefined, t);
    }
  });

  it('refuses a wrong secret, a wrong id, a wrong type, a Secret being deleted or in another namespace', () => {
    assert.equal(authenticator(secret('abcdef', {})).authenticateToken('abcdef.0123456789abcdee'), undefined);
    assert.equal(authenticator(secret('abcdef', { 'token-id': 'abcdeg' })).authenticateToken('abcdef.0123456789abcdef'), undefined);
    assert.equal(authenticator(secret('abcdef', {}, { type: 'Opaque' })).authenticateToken('abcdef.0123456789abcdef'), undefined);
    const deleting = secret('abcdef', {});
    deleting.metadata.deletionTimestamp = '2029-12-31T00:00:00Z';
    assert.equal(authenticator(deleting).authenticateToken('abcdef.0123456789abcdef'), undefined);
    const elsewhere = secret('abcdef', {});
    elsewhere.metadata.namespace = 'default';
    assert.equal(authenticator(elsewhere).authenticateToken('abcdef.0123456789abcdef'), undefined);
  });

  it('honours expiration (an unparsable one counts as expired) and the authentication usage', () => {
    const t = 'abcdef.0123456789abcdef';
    assert.equal(authenticator(secret('abcdef', { expiration: '2029-12-31T23:59:59Z' })).authenticateToken(t), undefined);
    assert.equal(authenticator(secret('abcdef', { expiration: 'tomorrow' })).authenticateToken(t), undefined);
    assert.equal(authenticator(secret('abcdef', { expiration: '2030-01-01T00:59:59+01:00' })).authenticateToken(t), undefined);
    assert.ok(authenticator(secret('abcdef', { expiration: '2030-01-01T00:00:01Z' })).authenticateToken(t));
    assert.equal(authenticator(secret('abcdef', { 'usage-bootstrap-authentication': 'false' })).authenticateToken(t), undefined);
    assert.equal(authenticator(secret('abcdef', { 'usage-bootstrap-authentication': '' })).authenticateToken(t), undefined);
    assert.equal(authenticator(secret('abcdef', { 'auth-extra-groups': 'system:masters' })).authenticateToken(t), undefined);
  });

  it('validates extra groups as kube does', () => {
    assert.deepEqual(bootstrapGroups(secret('abcdef', {})), ['system:bootstrappers']);
    assert.throws(() => bootstrapGroups(secret('abcdef', { 'auth-extra-groups': 'system:bootstrappers:ok,system:bootstrappers:' })), /bootstrap group "system:bootstrappers:" is invalid/);
  });
});
