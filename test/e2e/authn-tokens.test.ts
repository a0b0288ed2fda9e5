/**
 * The real kubectl with bearer tokens from an OIDC issuer and from a token webhook (both real,
 * started here): `kubectl get --raw /api` works with a good token and is refused (Unauthorized)
 * with a bad one; under AlwaysDeny the Forbidden message names the user the token stands for.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { kubeconfig } from '../../hack/run-local.js';
import { kubectl } from '../support/kubectl.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc-issuer.js';
import { useServer, type ServerFixture } from '../support/server.js';
import { startTestTokenWebhook, type TestTokenWebhook } from '../support/token-webhook.js';

/** A server with OIDC and the token webhook on, plus the issuer and webhook it trusts. */
function useTokenServer(authorizationMode: string): { fx: ServerFixture; issuer: () => TestIssuer; hook: () => TestTokenWebhook } {
  let issuer: TestIssuer;
  let hook: TestTokenWebhook;
  const fx = useServer({}, async () => {
    issuer = await startTestIssuer(fx.dir, { clientId: 'kubectl-e2e' });
    hook = await startTestTokenWebhook();
    hook.users.set('webhook-secret-token', { username: 'webhook-user', groups: ['team'] });
    return [
      `--authorization-mode=${authorizationMode}`,
      `--oidc-issuer-url=${issuer.url}`,
      '--oidc-client-id=kubectl-e2e',
      `--oidc-ca-file=${issuer.caFile}`,
      '--oidc-username-claim=email',
      `--authentication-token-webhook-config-file=${await hook.writeKubeconfig(fx.dir)}`,
      '--authentication-token-webhook-version=v1',
    ];
  });
  after(async () => {
    await issuer?.stop();
    await hook?.stop();
  });
  return { fx, issuer: () => issuer, hook: () => hook };
}

async function withToken(fx: ServerFixture, name: string, token: string): Promise<string> {
  const path = join(fx.dir, `${name}.kubeconfig`);
  await writeFile(path, kubeconfig(`https://127.0.0.1:${fx.port}`, fx.ca, name, { token }));
  return path;
}

/** kubectl get --raw /api, retried briefly while the OIDC authenticator reads its issuer. */
async function getApi(path: string, expectOk: boolean) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await kubectl(path, ['get', '--raw', '/api']);
    if (r.code === 0 || !expectOk || Date.now() > deadline) return r;
    await new Promise((res) => setTimeout(res, 200));
  }
}

describe('kubectl with OIDC and webhook tokens (AlwaysAllow)', () => {
  const { fx, issuer } = useTokenServer('AlwaysAllow');

  it('an OIDC ID token works; a bad one is refused', async () => {
    const good = await getApi(await withToken(fx, 'oidc', issuer().sign({ sub: '1', email: 'jane@example.com', email_verified: true })), true);
    assert.equal(good.code, 0, good.stderr);
    assert.equal(JSON.parse(good.stdout).kind, 'APIVersions');
    const expired = issuer().sign({ sub: '1', email: 'jane@example.com', exp: Math.floor(Date.now() / 1000) - 60 });
    const bad = await getApi(await withToken(fx, 'oidc-expired', expired), false);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /Unauthorized/);
  });

  it('a webhook token works; an unknown one is refused', async () => {
    const good = await getApi(await withToken(fx, 'hook', 'webhook-secret-token'), true);
    assert.equal(good.code, 0, good.stderr);
    assert.equal(JSON.parse(good.stdout).kind, 'APIVersions');
    const bad = await getApi(await withToken(fx, 'hook-bad', 'not-a-known-token'), false);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /error: You must be logged in to the server \(Unauthorized\)/);
  });
});

describe('kubectl with OIDC and webhook tokens (AlwaysDeny names the user)', () => {
  const { fx, issuer } = useTokenServer('AlwaysDeny');

  it('the OIDC user is the email claim, unprefixed; the webhook user is its username', async () => {
    const deadline = Date.now() + 10_000;
    const path = await withToken(fx, 'oidc', issuer().sign({ sub: '1', email: 'jane@example.com' }));
    let r = await kubectl(path, ['get', '--raw', '/api']);
    while (!/Forbidden/.test(r.stderr) && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 200));
      r = await kubectl(path, ['get', '--raw', '/api']);
    }
    assert.match(r.stderr, /Error from server \(Forbidden\): forbidden: User "jane@example.com" cannot get path "\/api"/);
    const hook = await kubectl(await withToken(fx, 'hook', 'webhook-secret-token'), ['get', '--raw', '/api']);
    assert.match(hook.stderr, /forbidden: User "webhook-user" cannot get path "\/api"/);
  });
});
