import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { BuiltAuthentication } from '../../../authn/build.js';
import { AuthenticationError, type AuthenticationResult, type TokenAuthenticator } from '../../../authn/interface.js';
import { internalContext, type UserInfo } from '../../../request/context.js';
import { TokenReviewStorage } from './store.js';

/** A token's entry: its user and audiences, or the error its method refuses it with. */
type TokenEntry = { readonly user: UserInfo; readonly audiences?: readonly string[] } | { readonly error: string };

/** The storage's token method, faked: answers from a table and records what each call asked. */
class TableTokenAuthenticator implements TokenAuthenticator {
  readonly calls: Array<{ token: string; audiences: readonly string[] }> = [];

  constructor(private readonly tokens: Readonly<Record<string, TokenEntry>>) {}

  authenticateToken(token: string, audiences: readonly string[]): AuthenticationResult | undefined {
    this.calls.push({ token, audiences });
    const entry = Object.hasOwn(this.tokens, token) ? this.tokens[token] : undefined;
    if (!entry) return undefined;
    if ('error' in entry) throw new AuthenticationError(entry.error);
    return { user: entry.user, ...(entry.audiences ? { audiences: entry.audiences } : {}) };
  }
}

const testTokens: Readonly<Record<string, TokenEntry>> = {
  'alice-token': { user: { name: 'alice', uid: 'alice-uid', groups: ['devs'], extra: { scopes: ['read', 'write'] } } },
  // What kube's bound service account validator says of a token whose pod was deleted.
  'revoked-token': { error: 'service account token has been invalidated' },
};

function authentication(tokens: Readonly<Record<string, TokenEntry>>, apiAudiences: string[] = []): BuiltAuthentication & { tokens: TableTokenAuthenticator } {
  const t = new TableTokenAuthenticator(tokens);
  return { authenticator: { authenticate: () => undefined }, tokenAuthenticator: t, clientCAs: () => [], apiAudiences, stop: () => undefined, tokens: t };
}

function review(spec: Record<string, unknown>, extra: Partial<KubeObject> = {}): KubeObject {
  return { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec, ...extra };
}

const ctx = () => internalContext({ verb: 'create', group: 'authentication.k8s.io', resource: 'tokenreviews' });

describe('TokenReview storage', () => {
  it('answers a valid token with its user, system:authenticated added, and the status kube writes', async () => {
    const store = new TokenReviewStorage({ authentication: authentication(testTokens) });
    const out = await store.create(ctx(), review({ token: 'alice-token' }, { metadata: { uid: 'client-set', creationTimestamp: '2020-01-01T00:00:00Z' } }), { dryRun: false });
    assert.deepEqual(out, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      metadata: { creationTimestamp: null },
      spec: { token: 'alice-token' },
      status: { authenticated: true, user: { username: 'alice', uid: 'alice-uid', groups: ['devs', 'system:authenticated'], extra: { scopes: ['read', 'write'] } } },
    });
  });

  it('answers an unknown token "invalid bearer token" and a refused one with the method error only', async () => {
    const store = new TokenReviewStorage({ authentication: authentication(testTokens) });
    assert.deepEqual((await store.create(ctx(), review({ token: 'who' }), { dryRun: false })).status, { user: {}, error: 'invalid bearer token' });
    assert.deepEqual((await store.create(ctx(), review({ token: 'revoked-token' }), { dryRun: false })).status, { user: {}, error: 'service account token has been invalidated' });
  });

  it('reads the bearer token as kube does: the first word, none at all when it starts with a space', async () => {
    const authn = authentication(testTokens);
    const store = new TokenReviewStorage({ authentication: authn });
    assert.equal(((await store.create(ctx(), review({ token: 'alice-token trailing words' }), { dryRun: false })).status as { authenticated?: boolean }).authenticated, true);
    assert.equal(authn.tokens.calls.at(-1)?.token, 'alice-token');
    const calls = authn.tokens.calls.length;
    assert.deepEqual((await store.create(ctx(), review({ token: ' alice-token' }), { dryRun: false })).status, { user: {} });
    assert.equal(authn.tokens.calls.length, calls);
  });

  it('asks for spec.audiences, else the server api audiences, and 500s when the token fits none', async () => {
    const authn = authentication({ t: { user: { name: 'x', groups: [] }, audiences: ['api'] } }, ['api']);
    const store = new TokenReviewStorage({ authentication: authn });
    const out = await store.create(ctx(), review({ token: 't' }), { dryRun: false });
    assert.deepEqual(authn.tokens.calls.at(-1)?.audiences, ['api']);
    assert.deepEqual(out.status, { authenticated: true, user: { username: 'x', groups: ['system:authenticated'] }, audiences: ['api'] });
    await assert.rejects(store.create(ctx(), review({ token: 't', audiences: ['vault'] }), { dryRun: false }), (err: Error & { status?: { code?: number } }) => {
      assert.equal(err.message, 'Internal error occurred: error validating audiences');
      assert.equal(err.status?.code, 500);
      return true;
    });
    assert.deepEqual(authn.tokens.calls.at(-1)?.audiences, ['vault']);
  });

  it('treats a method without audiences as audience-agnostic (kube WrapAudienceAgnosticToken)', async () => {
    const store = new TokenReviewStorage({ authentication: authentication(testTokens, ['api', 'other']) });
    const ok = await store.create(ctx(), review({ token: 'alice-token', audiences: ['other', 'vault'] }), { dryRun: false });
    assert.deepEqual((ok.status as { audiences?: string[] }).audiences, ['other']);
    const no = await store.create(ctx(), review({ token: 'alice-token', audiences: ['vault'] }), { dryRun: false });
    assert.deepEqual(no.status, { user: {}, error: 'invalid bearer token' });
  });

  it('refuses an empty token (400) before admission, and lets admission refuse the review', async () => {
    const store = new TokenReviewStorage({ authentication: authentication(testTokens) });
    let admitted = 0;
    const validate = () => {
      admitted++;
    };
    await assert.rejects(store.create(ctx(), review({}), { dryRun: false }, validate), { message: 'token is required for TokenReview in authentication' });
    assert.equal(admitted, 0);
    await assert.rejects(
      store.create(ctx(), review({ token: 'alice-token' }), { dryRun: false }, () => {
        throw new Error('denied by admission');
      }),
      { message: 'denied by admission' },
    );
  });
});
