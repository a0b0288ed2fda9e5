/**
 * OIDC and the token webhook in a running server: a real issuer (HTTPS, discovery, JWKS) and a real
 * TokenReview webhook, both started here. With --authorization-mode=AlwaysDeny an authenticated
 * request is 403 naming its user, an unauthenticated one 401. Tokens OIDC accepts never reach the
 * webhook (those it refuses do, as in kube's token union).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startTestIssuer, type TestIssuer } from '../support/oidc-issuer.js';
import { useServer } from '../support/server.js';
import { startTestTokenWebhook, type TestTokenWebhook } from '../support/token-webhook.js';

describe('OIDC and token webhook authentication', () => {
  let issuer: TestIssuer;
  let hook: TestTokenWebhook;
  const fx = useServer({}, async () => {
    issuer = await startTestIssuer(fx.dir, { clientId: 'capstan' });
    hook = await startTestTokenWebhook();
    hook.users.set('webhook-token-alice', { username: 'alice@corp', groups: ['corp:devs'] });
    return [
      '--authorization-mode=AlwaysDeny',
      `--oidc-issuer-url=${issuer.url}`,
      '--oidc-client-id=capstan',
      `--oidc-ca-file=${issuer.caFile}`,
      '--oidc-groups-claim=groups',
      '--oidc-groups-prefix=oidc:',
      '--oidc-required-claim=hd=example.com',
      `--authentication-token-webhook-config-file=${await hook.writeKubeconfig(fx.dir)}`,
    ];
  });
  after(async () => {
    await issuer?.stop();
    await hook?.stop();
  });

  const get = (token: string) => fx.request('GET', '/api/v1/namespaces/default/configmaps', { headers: { Authorization: `Bearer ${token}` } });

  /** Tokens a local method accepted: the webhook must never see them. */
  const accepted: string[] = [];

  async function userOf(token: string): Promise<string> {
    const res = await get(token);
    if (res.status === 403 && token.startsWith('ey')) accepted.push(token);
    assert.equal(res.status, 403, res.text);
    const m = /User "([^"]*)" cannot/.exec(res.json().message as string);
    return m?.[1] ?? '';
  }

  async function assertUnauthorized(token: string): Promise<void> {
    const res = await get(token);
    assert.equal(res.status, 401, res.text);
    assert.deepEqual(res.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  }

  async function waitForIssuer(): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if ((await get(issuer.sign({ sub: 'probe', hd: 'example.com' }))).status === 403) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the OIDC authenticator never initialised');
  }

  it('a valid OIDC token is its user, prefixed with the issuer', async () => {
    await waitForIssuer();
    assert.equal(await userOf(issuer.sign({ sub: 'alice', groups: ['dev'], hd: 'example.com' })), `${issuer.url}#alice`);
  });

  it('expired, wrong audience, bad signature, missing required claim: 401', async () => {
    const now = Math.floor(Date.now() / 1000);
    await assertUnauthorized(issuer.sign({ sub: 'a', hd: 'example.com', exp: now - 10 }));
    await assertUnauthorized(issuer.sign({ sub: 'a', hd: 'example.com', aud: 'someone-else' }));
    await assertUnauthorized(issuer.sign({ sub: 'a' }));
    const good = issuer.sign({ sub: 'a', hd: 'example.com' }).split('.');
    const claims = Buffer.from(JSON.stringify({ iss: issuer.url, aud: 'capstan', sub: 'root', hd: 'example.com', exp: now + 60 })).toString('base64url');
    await assertUnauthorized(`${good[0]}.${claims}.${good[2]}`);
  });

  it('a rotated key is fetched on first use; an unpublished key id is 401', async () => {
    issuer.addKey('rotated', 'RS256', true);
    assert.equal(await userOf(issuer.sign({ sub: 'rot', hd: 'example.com' }, 'rotated')), `${issuer.url}#rot`);
    issuer.addKey('never-published', 'RS256', false);
    await assertUnauthorized(issuer.sign({ sub: 'x', hd: 'example.com' }, 'never-published'));
  });

  it('a webhook token is the webhook user (v1beta1 by default), cached; accepted OIDC tokens never reach the webhook', async () => {
    const before = hook.reviews.length;
    assert.equal(await userOf('webhook-token-alice'), 'alice@corp');
    assert.equal(await userOf('webhook-token-alice'), 'alice@corp');
    assert.equal(hook.reviews.length, before + 1, 'the second request is answered from the cache');
    assert.equal(hook.reviews.at(-1)?.apiVersion, 'authentication.k8s.io/v1beta1');
    assert.ok(accepted.length >= 2);
    const sent = new Set(hook.reviews.map((r) => (r.spec as { token?: string }).token));
    assert.ok(accepted.every((t) => !sent.has(t)), 'a token OIDC accepted was sent to the webhook');
  });

  it('a JWT of another issuer passes OIDC by to the webhook, which refuses it: 401', async () => {
    const foreign = issuer.sign({ sub: 'x', iss: 'https://kubernetes.default.svc', hd: 'example.com' });
    await assertUnauthorized(foreign);
    assert.equal((hook.reviews.at(-1)?.spec as { token?: string }).token, foreign);
  });

  it('the webhook down: 401 for its tokens, OIDC unaffected', async () => {
    hook.users.set('webhook-token-bob', { username: 'bob' });
    await hook.stop();
    await assertUnauthorized('webhook-token-bob');
    assert.equal(await userOf(issuer.sign({ sub: 'carol', hd: 'example.com' })), `${issuer.url}#carol`);
  });
});
