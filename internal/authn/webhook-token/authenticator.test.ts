import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startTestTokenWebhook, type TestTokenWebhook } from '../../../test/support/token-webhook.js';
import type { Logger } from '../../observability/logging.js';
import { AuthenticationError, type TokenAuthenticator } from '../interface.js';
import { newWebhookTokenAuthenticator } from './authenticator.js';

const fast = { initialMs: 5, factor: 1.5, jitter: 0.2, steps: 3 };

function captureLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: string): void => void lines.push(m);
  return { lines, error: push, warn: push, info: push, v: (_l, m) => push(m) };
}

describe('token webhook authenticator against a real webhook', () => {
  let dir: string;
  let hook: TestTokenWebhook;
  let kubeconfigPath: string;
  const stops: Array<() => void> = [];

  async function build(version: 'v1' | 'v1beta1', cacheTTLMs = 0, apiAudiences: string[] = [], log = captureLog()): Promise<TokenAuthenticator> {
    const built = await newWebhookTokenAuthenticator({ configFile: kubeconfigPath, version, cacheTTLMs }, apiAudiences, log, fast);
    stops.push(built.stop);
    return built.authenticator;
  }

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-token-webhook-'));
    hook = await startTestTokenWebhook();
    kubeconfigPath = await hook.writeKubeconfig(dir);
    hook.users.set('tok-alice', { username: 'alice', uid: 'u-1', groups: ['devs'], extra: { scopes: ['read'] } });
  });
  after(async () => {
    for (const s of stops) s();
    await hook.stop();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    hook.reviews.length = 0;
    delete hook.failWith;
    delete hook.unknownError;
  });

  for (const version of ['v1', 'v1beta1'] as const) {
    it(`${version}: sends a TokenReview and reads the user`, async () => {
      const a = await build(version);
      assert.deepEqual(await a.authenticateToken('tok-alice', []), { user: { name: 'alice', uid: 'u-1', groups: ['devs'], extra: { scopes: ['read'] } } });
      assert.equal(hook.reviews.length, 1);
      assert.equal(hook.reviews[0]?.apiVersion, `authentication.k8s.io/${version}`);
      assert.equal(hook.reviews[0]?.kind, 'TokenReview');
      assert.deepEqual(hook.reviews[0]?.spec, { token: 'tok-alice' });
    });
  }

  it('no opinion on authenticated: false; status.error is an error', async () => {
    const a = await build('v1');
    assert.equal(await a.authenticateToken('nobody', []), undefined);
    hook.unknownError = 'token revoked';
    await assert.rejects(Promise.resolve(a.authenticateToken('nobody', [])), (e: unknown) => e instanceof AuthenticationError && e.message === 'token revoked');
  });

  it('caches users and refusals for the TTL, not errors', async () => {
    const a = await build('v1', 60_000);
    await a.authenticateToken('tok-alice', []);
    await a.authenticateToken('tok-alice', []);
    await a.authenticateToken('nobody', []);
    await a.authenticateToken('nobody', []);
    assert.equal(hook.reviews.length, 2, 'a user and a refusal are cached');
    hook.failWith = { status: 500, body: 'boom' };
    await assert.rejects(Promise.resolve(a.authenticateToken('other', [])), AuthenticationError);
    assert.equal(hook.reviews.length, 2 + fast.steps, '500 is retried');
    delete hook.failWith;
    hook.users.set('other', { username: 'otto' });
    assert.equal((await a.authenticateToken('other', []))?.user.name, 'otto', 'an error is not cached');
  });

  it('sends audiences and checks the answer shares one', async () => {
    const api = ['https://kubernetes.default.svc'];
    const a = await build('v1', 0, api);
    const r = await a.authenticateToken('tok-alice', []);
    assert.deepEqual(hook.reviews[0]?.spec, { token: 'tok-alice', audiences: api });
    assert.deepEqual(r?.audiences, api);
    hook.users.set('tok-vault', { username: 'vault', audiences: ['vault'] });
    assert.deepEqual((await a.authenticateToken('tok-vault', ['vault', 'x']))?.audiences, ['vault']);
    assert.equal(await a.authenticateToken('tok-vault', ['https://kubernetes.default.svc']), undefined);
  });

  it('an unreachable webhook or a non-2xx answer is an AuthenticationError, logged', async () => {
    const log = captureLog();
    const a = await build('v1', 60_000, [], log);
    hook.failWith = { status: 403, body: 'nope' };
    await assert.rejects(Promise.resolve(a.authenticateToken('tok-alice', [])), /the server does not allow access to the requested resource/);
    assert.equal(hook.reviews.length, 1, '4xx is not retried');
    assert.ok(log.lines.some((l) => l.startsWith('Failed to make webhook authenticator request: ')));
    delete hook.failWith;
    await hook.stop();
    await assert.rejects(Promise.resolve(a.authenticateToken('tok-alice', [])), (e: unknown) => e instanceof AuthenticationError && /ECONNREFUSED/.test(e.message));
  });
});
