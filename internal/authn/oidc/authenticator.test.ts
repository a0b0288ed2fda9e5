import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestIssuer, type TestIssuer } from '../../../test/support/oidc-issuer.js';
import type { Logger } from '../../observability/logging.js';
import type { OIDCOptions } from '../../server/options/oidc.js';
import { AuthenticationError } from '../interface.js';
import { newOIDCAuthenticator, OIDCAuthenticator, untrustedIssuer } from './authenticator.js';

function captureLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (m: string): void => void lines.push(m);
  return { lines, error: push, warn: push, info: push, v: (_l, m) => push(m) };
}

async function rejectsWith(p: Promise<unknown>, message: string | RegExp): Promise<void> {
  await assert.rejects(
    p,
    (err: unknown) => {
      assert.ok(err instanceof AuthenticationError, `not an AuthenticationError: ${String(err)}`);
      if (typeof message === 'string') assert.equal(err.message, message);
      else assert.match(err.message, message);
      return true;
    },
  );
}

describe('OIDC authenticator against a real issuer', () => {
  let dir: string;
  let issuer: TestIssuer;
  let opts: OIDCOptions;
  let auth: OIDCAuthenticator;
  const log = captureLog();
  const now = Math.floor(Date.now() / 1000);
  const call = (token: string) => Promise.resolve().then(() => auth.authenticateToken(token, []));

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-oidc-'));
    issuer = await startTestIssuer(dir, { clientId: 'capstan' });
    opts = {
      issuerURL: issuer.url,
      clientID: 'capstan',
      caFile: issuer.caFile,
      usernameClaim: 'sub',
      usernamePrefix: `${issuer.url}#`,
      groupsClaim: 'groups',
      groupsPrefix: 'oidc:',
      requiredClaims: new Map([['hd', 'example.com']]),
      signingAlgs: ['RS256', 'ES256'],
      keyRefreshMinIntervalMs: 60_000,
    };
    auth = new OIDCAuthenticator(opts, issuer.caPem, log);
    await auth.start();
    assert.equal(auth.initialized, true);
  });
  after(async () => {
    auth?.stop();
    await issuer?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('names the user with prefixes and groups (a list or one string)', async () => {
    const r = await call(issuer.sign({ sub: 'alice', groups: ['dev', 'ops'], hd: 'example.com' }));
    assert.deepEqual(r, { user: { name: `${issuer.url}#alice`, groups: ['oidc:dev', 'oidc:ops'] } });
    const one = await call(issuer.sign({ sub: 'bob', groups: 'admins', hd: 'example.com' }));
    assert.deepEqual(one?.user.groups, ['oidc:admins']);
    const none = await call(issuer.sign({ sub: 'carol', hd: 'example.com' }));
    assert.deepEqual(none?.user.groups, []);
  });

  it('has no opinion on tokens of other issuers and on non-JWTs', async () => {
    assert.equal(await call(issuer.sign({ sub: 'x', iss: 'https://kubernetes.default.svc', hd: 'example.com' })), undefined);
    assert.equal(await call('0123456789abcdef'), undefined);
    assert.equal(untrustedIssuer('a.b'), undefined);
  });

  it("refuses an expired token (no leeway) with kube's message", async () => {
    await rejectsWith(call(issuer.sign({ sub: 'a', hd: 'example.com', exp: now - 5 })), /^oidc: verify token: oidc: token is expired \(Token Expiry: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC\)$/);
    await rejectsWith(call(issuer.sign({ sub: 'a', hd: 'example.com', exp: null })), 'oidc: verify token: oidc: token is expired (Token Expiry: 0001-01-01 00:00:00 +0000 UTC)');
  });

  it('honours nbf with a minute of leeway; iat is not checked', async () => {
    assert.ok(await call(issuer.sign({ sub: 'a', hd: 'example.com', nbf: now + 30, iat: now + 3600 })));
    await rejectsWith(call(issuer.sign({ sub: 'a', hd: 'example.com', nbf: now + 300 })), /before the nbf \(not before\) time/);
  });

  it('refuses a wrong audience', async () => {
    await rejectsWith(call(issuer.sign({ sub: 'a', hd: 'example.com', aud: ['other', 'more'] })), 'oidc: verify token: oidc: expected audience "capstan" got ["other" "more"]');
    assert.ok(await call(issuer.sign({ sub: 'a', hd: 'example.com', aud: ['other', 'capstan'] })));
  });

  it('refuses a bad signature, and an algorithm not allowed', async () => {
    const good = issuer.sign({ sub: 'a', hd: 'example.com' });
    const [h, p] = good.split('.');
    const fetches = issuer.fetches.jwks;
    // Claims changed under the signature of other claims.
    await rejectsWith(call(`${h}.${Buffer.from(JSON.stringify({ iss: issuer.url, aud: 'capstan', sub: 'root', exp: now + 60, hd: 'example.com' })).toString('base64url')}.${good.split('.')[2]}`), 'oidc: verify token: failed to verify signature: failed to verify id token signature');
    assert.equal(issuer.fetches.jwks, fetches, 'a known key id with a bad signature does not refetch the keys');
    issuer.addKey('ec-1', 'ES384');
    await rejectsWith(call(issuer.sign({ sub: 'a', hd: 'example.com' }, 'ec-1')), 'oidc: verify token: oidc: id token signed with unsupported algorithm, expected ["RS256" "ES256"] got "ES384"');
    await rejectsWith(call(`bm90IGpzb24.${p}.${good.split('.')[2]}`), 'oidc: verify token: oidc: malformed jwt: the JOSE header is not a JSON object');
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
    await rejectsWith(call(unsigned), /unsupported algorithm, expected \["RS256" "ES256"\] got "none"/);
  });

  it('refuses a missing or different required claim', async () => {
    await rejectsWith(call(issuer.sign({ sub: 'a' })), 'oidc: required claim hd not present in ID token');
    await rejectsWith(call(issuer.sign({ sub: 'a', hd: 'evil.com' })), 'oidc: required claim hd value does not match. Got = evil.com, want = example.com');
  });

  it('refuses malformed username and groups claims', async () => {
    await rejectsWith(call(issuer.sign({ sub: null, hd: 'example.com' })), 'oidc: parse username claims "sub": claim not present');
    await rejectsWith(call(issuer.sign({ sub: 42, hd: 'example.com' })), 'oidc: parse username claims "sub": json: cannot unmarshal number into Go value of type string');
    await rejectsWith(call(issuer.sign({ sub: 'a', groups: [1], hd: 'example.com' })), /oidc: parse groups claim "groups"/);
    await rejectsWith(call(issuer.sign({ sub: 'a', hd: 'example.com', _claim_names: { groups: 'src1' }, _claim_sources: { src1: { endpoint: 'https://x' } } })), /distributed claim "groups" is not supported/);
  });

  it('fetches the keys again for an unknown key id, finds a rotated key, and rate-limits refetches', async () => {
    issuer.addKey('rotated', 'ES256', true);
    const before = issuer.fetches.jwks;
    const r = await call(issuer.sign({ sub: 'rot', hd: 'example.com' }, 'rotated'));
    assert.equal(r?.user.name, `${issuer.url}#rot`);
    assert.equal(issuer.fetches.jwks, before + 1);
    // Keys the issuer does not publish stay unknown; within the interval the issuer is not asked again.
    issuer.addKey('secret', 'RS256', false);
    for (let i = 0; i < 5; i++) await rejectsWith(call(issuer.sign({ sub: 'x', hd: 'example.com' }, 'secret')), 'oidc: verify token: failed to verify signature: failed to verify id token signature');
    assert.equal(issuer.fetches.jwks, before + 1, 'unknown key ids must not make the server hammer the issuer');
  });
});

describe('OIDC authenticator start-up', () => {
  it('starts while the issuer is down and picks its keys up later', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-oidc-late-'));
    const issuer = await startTestIssuer(dir, { startNow: false });
    const log = captureLog();
    const opts: OIDCOptions = {
      issuerURL: issuer.url,
      clientID: 'capstan',
      caFile: issuer.caFile,
      usernameClaim: 'email',
      usernamePrefix: '',
      groupsPrefix: '',
      requiredClaims: new Map(),
      signingAlgs: ['RS256'],
      initRetryMs: 100,
    };
    const built = await newOIDCAuthenticator(opts, [], log);
    try {
      await new Promise((r) => setTimeout(r, 100));
      const token = issuer.sign({ sub: 'x', email: 'dana@example.com', email_verified: true });
      await rejectsWith(Promise.resolve().then(() => built.authenticator.authenticateToken(token, [])), 'oidc: authenticator not initialized');
      assert.ok(log.lines.some((l) => l.startsWith('oidc authenticator: initializing plugin: ')), log.lines.join('\n'));
      await issuer.listen();
      // The background retry (every initRetryMs) finds the issuer up.
      for (let i = 0; i < 50 && !built.oidc.initialized; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(built.oidc.initialized, true);
      assert.deepEqual(await built.authenticator.authenticateToken(token, []), { user: { name: 'dana@example.com', groups: [] } });
      await rejectsWith(Promise.resolve().then(() => built.authenticator.authenticateToken(issuer.sign({ sub: 'x', email: 'eve@example.com', email_verified: false }), [])), 'oidc: email not verified');
      assert.ok(await built.authenticator.authenticateToken(issuer.sign({ sub: 'x', email: 'fay@example.com' }), []), 'email_verified absent is accepted');
    } finally {
      built.stop();
      await issuer.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a discovery document naming another issuer, and is audience-agnostic', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-oidc-mismatch-'));
    const issuer = await startTestIssuer(dir);
    issuer.discoveryIssuer = 'https://evil.example.com';
    const log = captureLog();
    const opts: OIDCOptions = { issuerURL: issuer.url, clientID: 'capstan', caFile: issuer.caFile, usernameClaim: 'sub', usernamePrefix: '', groupsPrefix: '', requiredClaims: new Map(), signingAlgs: ['RS256'] };
    const apiAudiences = ['https://kubernetes.default.svc'];
    const built = await newOIDCAuthenticator(opts, apiAudiences, log);
    try {
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(built.oidc.initialized, false);
      assert.ok(log.lines.some((l) => l.includes(`oidc: issuer did not match the issuer returned by provider, expected "${issuer.url}" got "https://evil.example.com"`)), log.lines.join('\n'));
      issuer.discoveryIssuer = issuer.url;
      await built.oidc.start();
      const token = issuer.sign({ sub: 'gus' });
      assert.deepEqual(await built.authenticator.authenticateToken(token, []), { user: { name: 'gus', groups: [] }, audiences: apiAudiences });
      assert.equal(await built.authenticator.authenticateToken(token, ['some-other-api']), undefined);
    } finally {
      built.stop();
      await issuer.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses to build with an unreadable or empty --oidc-ca-file', async () => {
    const opts: OIDCOptions = { issuerURL: 'https://127.0.0.1:1', clientID: 'c', caFile: '/nonexistent/ca.crt', usernameClaim: 'sub', usernamePrefix: '', groupsPrefix: '', requiredClaims: new Map(), signingAlgs: ['RS256'] };
    await assert.rejects(newOIDCAuthenticator(opts, [], captureLog()), /ENOENT/);
    await assert.rejects(newOIDCAuthenticator({ ...opts, caFile: '/dev/null' }, [], captureLog()), /Failed to read the CA contents/);
  });
});
