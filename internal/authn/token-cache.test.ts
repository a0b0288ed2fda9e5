import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AudienceAgnosticTokenAuthenticator } from './audience-agnostic.js';
import { AuthenticationError, type AuthenticationResult, type TokenAuthenticator } from './interface.js';
import { CachedTokenAuthenticator, defaultTokenCacheOptions } from './token-cache.js';

/** A token method counting its calls; "good" is alice, "bad" throws, anything else is no opinion. */
function counting(delayMs = 0): TokenAuthenticator & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async authenticateToken(token: string, audiences: readonly string[]) {
      calls.push(`${token}@${audiences.join(',')}`);
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      if (token === 'bad') throw new AuthenticationError('bad token');
      return token === 'good' ? { user: { name: 'alice', groups: [] } } : undefined;
    },
  };
}

describe('token cache', () => {
  it("uses kube-apiserver's TTLs: successes 10 s, failures not cached", () => {
    assert.equal(defaultTokenCacheOptions.successTtlMs, 10_000);
    assert.equal(defaultTokenCacheOptions.failureTtlMs, 0);
  });

  it('answers a cached success without asking again until the TTL passes, then asks again', async () => {
    let now = 1_000;
    const inner = counting();
    const cache = new CachedTokenAuthenticator(inner, { ...defaultTokenCacheOptions, now: () => now });
    assert.equal((await cache.authenticateToken('good', []))?.user.name, 'alice');
    now += 9_999;
    // A hit answers synchronously: no promise on the hot path.
    const hit = cache.authenticateToken('good', []);
    assert.ok(!(hit instanceof Promise));
    assert.equal((hit as AuthenticationResult).user.name, 'alice');
    assert.equal(inner.calls.length, 1);
    now += 2;
    await cache.authenticateToken('good', []);
    assert.equal(inner.calls.length, 2);
  });

  it('does not cache unknown or invalid tokens', async () => {
    const inner = counting();
    const cache = new CachedTokenAuthenticator(inner);
    assert.equal(await cache.authenticateToken('unknown', []), undefined);
    assert.equal(await cache.authenticateToken('unknown', []), undefined);
    await assert.rejects(async () => cache.authenticateToken('bad', []), /bad token/);
    await assert.rejects(async () => cache.authenticateToken('bad', []), /bad token/);
    assert.equal(inner.calls.length, 4);
    assert.equal(cache.size, 0);
  });

  it('keys by audiences as well as the token', async () => {
    const inner = counting();
    const cache = new CachedTokenAuthenticator(inner);
    await cache.authenticateToken('good', ['api']);
    await cache.authenticateToken('good', ['other']);
    await cache.authenticateToken('good', ['api']);
    // Length-prefixed: ["a,b"] and ["a","b"] are different keys.
    await cache.authenticateToken('good', ['a,b']);
    await cache.authenticateToken('good', ['a', 'b']);
    assert.deepEqual(inner.calls, ['good@api', 'good@other', 'good@a,b', 'good@a,b']);
  });

  it('shares one call between concurrent lookups of a token', async () => {
    const inner = counting(20);
    const cache = new CachedTokenAuthenticator(inner);
    const answers = await Promise.all([1, 2, 3].map(() => cache.authenticateToken('good', [])));
    assert.deepEqual(answers.map((a) => a?.user.name), ['alice', 'alice', 'alice']);
    assert.equal(inner.calls.length, 1);
  });

  it('holds at most maxEntries, dropping the oldest', async () => {
    const cache = new CachedTokenAuthenticator({ authenticateToken: (t) => ({ user: { name: t, groups: [] } }) }, { successTtlMs: 10_000, failureTtlMs: 0, maxEntries: 3 });
    for (const t of ['a', 'b', 'c', 'd']) cache.authenticateToken(t, []);
    assert.equal(cache.size, 3);
  });
});

describe('audience-agnostic token methods', () => {
  const inner: TokenAuthenticator = { authenticateToken: (t) => (t === 'good' ? { user: { name: 'alice', groups: [] } } : undefined) };

  it('answer as the method does without --api-audiences', () => {
    assert.deepEqual(new AudienceAgnosticTokenAuthenticator(inner, []).authenticateToken('good', ['anything']), { user: { name: 'alice', groups: [] } });
  });

  it('are valid for the API audiences only, and carry the shared audiences', () => {
    const a = new AudienceAgnosticTokenAuthenticator(inner, ['https://kubernetes.default.svc', 'api']);
    assert.deepEqual(a.authenticateToken('good', []), { user: { name: 'alice', groups: [] }, audiences: ['https://kubernetes.default.svc', 'api'] });
    assert.deepEqual(a.authenticateToken('good', ['api', 'vault']), { user: { name: 'alice', groups: [] }, audiences: ['api'] });
    assert.equal(a.authenticateToken('good', ['vault']), undefined);
    assert.equal(a.authenticateToken('nope', []), undefined);
  });
});
