import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuthenticationError, type AuthenticationResult, type TokenAuthenticator } from './interface.js';
import { CachedTokenAuthenticator } from './token-cache.js';

/** An authenticator counting its calls: "good" is alice, "bad" is no opinion, "err" throws. */
function counting(): TokenAuthenticator & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async authenticateToken(token, audiences) {
      calls.push(`${token}|${audiences.join(',')}`);
      await new Promise((r) => setTimeout(r, 5));
      if (token === 'good') return { user: { name: 'alice', groups: [] } } satisfies AuthenticationResult;
      if (token === 'err') throw new AuthenticationError('webhook down');
      return undefined;
    },
  };
}

describe('token cache', () => {
  it('caches users for the success TTL and refusals for the failure TTL', async () => {
    let now = 1_000;
    const inner = counting();
    const cache = new CachedTokenAuthenticator(inner, { successTTLMs: 100, failureTTLMs: 10, cacheErrors: false, now: () => now });
    assert.equal((await cache.authenticateToken('good', []))?.user.name, 'alice');
    assert.equal((await cache.authenticateToken('good', []))?.user.name, 'alice');
    assert.equal(await cache.authenticateToken('bad', []), undefined);
    assert.equal(await cache.authenticateToken('bad', []), undefined);
    assert.deepEqual(inner.calls, ['good|', 'bad|']);
    now += 50;
    await cache.authenticateToken('bad', []);
    await cache.authenticateToken('good', []);
    assert.deepEqual(inner.calls, ['good|', 'bad|', 'bad|']);
    now += 60;
    await cache.authenticateToken('good', []);
    assert.equal(inner.calls.length, 4);
  });

  it('answers a hit synchronously', async () => {
    const cache = new CachedTokenAuthenticator(counting(), { successTTLMs: 1000, failureTTLMs: 0, cacheErrors: false });
    await cache.authenticateToken('good', []);
    const hit = cache.authenticateToken('good', []);
    assert.equal(hit instanceof Promise, false);
  });

  it('never caches errors unless told to', async () => {
    const inner = counting();
    const cache = new CachedTokenAuthenticator(inner, { successTTLMs: 1000, failureTTLMs: 1000, cacheErrors: false });
    await assert.rejects(Promise.resolve(cache.authenticateToken('err', [])), /webhook down/);
    await assert.rejects(Promise.resolve(cache.authenticateToken('err', [])), /webhook down/);
    assert.equal(inner.calls.length, 2);
    const caching = new CachedTokenAuthenticator(inner, { successTTLMs: 1000, failureTTLMs: 1000, cacheErrors: true });
    await assert.rejects(Promise.resolve(caching.authenticateToken('err', [])), /webhook down/);
    assert.throws(() => caching.authenticateToken('err', []), /webhook down/);
    assert.equal(inner.calls.length, 3);
  });

  it('keys by audiences too, and asks once for concurrent requests', async () => {
    const inner = counting();
    const cache = new CachedTokenAuthenticator(inner, { successTTLMs: 1000, failureTTLMs: 1000, cacheErrors: false });
    await Promise.all([1, 2, 3, 4].map(() => cache.authenticateToken('good', ['a'])));
    await cache.authenticateToken('good', ['b']);
    await cache.authenticateToken('good', ['a', 'b']);
    await cache.authenticateToken('good', ['a,b']);
    assert.deepEqual(inner.calls, ['good|a', 'good|b', 'good|a,b', 'good|a,b']);
  });

  it('stays within maxEntries', async () => {
    const inner = counting();
    const cache = new CachedTokenAuthenticator(inner, { successTTLMs: 1000, failureTTLMs: 1000, cacheErrors: false, maxEntries: 3 });
    for (const t of ['t1', 't2', 't3', 't4']) await cache.authenticateToken(t, []);
    await cache.authenticateToken('t4', []);
    await cache.authenticateToken('t1', []);
    assert.deepEqual(inner.calls, ['t1|', 't2|', 't3|', 't4|', 't1|']);
  });
});
