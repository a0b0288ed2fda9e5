/**
 * Service account tokens end to end over HTTPS: the serviceaccounts/token subresource issues bound
 * tokens with kube's claims, they authenticate as the service account (seen through a second
 * server on the same etcd with --authorization-mode=AlwaysDeny, whose 403 names the user), and
 * they stop working when revoked, expired, signed by another key or meant for another audience.
 * Tokens used after a revocation were never used before it, so a success cache in front of the
 * authenticators (kube caches successes for 10 s) does not change what these tests see.
 */
import assert from 'node:assert/strict';
import { defaultAuthorizationOptions } from '../../internal/server/options/authorization.js';
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import jwt from 'jsonwebtoken';
import { freePort } from '../../hack/local-etcd.js';
import { createLogger } from '../../internal/observability/logging.js';
import { keyIdOf } from '../../internal/serviceaccount/keys.js';
import { startServer, type RunningServer } from '../../internal/server/server.js';
import { httpsCall, testServerOptions, useServer, type TestResponse } from '../support/server.js';
import { decodeToken, serviceAccountFlags, testIssuer, writeSigningKey, type TestSigningKey } from '../support/service-accounts.js';

describe('service account tokens', () => {
  let key: TestSigningKey;
  const fx = useServer({}, async () => {
    key = await writeSigningKey('rsa');
    return serviceAccountFlags(key, ['--service-account-max-token-expiration=2h']);
  });

  let deny: RunningServer;
  before(async () => {
    const port = await freePort();
    const extra = { ...(fx.options.serviceAccount ? { serviceAccount: fx.options.serviceAccount } : {}), authorization: { ...defaultAuthorizationOptions, modes: ['AlwaysDeny' as const] } };
    // The same --cert-dir, so both servers' token controllers agree on the CA they write into Secrets.
    deny = await startServer(testServerOptions(fx.etcd.endpoint, port, join(fx.dir, 'certs'), extra), createLogger(0, true));
    await deny.ready;
  });
  after(async () => {
    await deny?.stop();
  });

  const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

  /** Who the AlwaysDeny server says the token's bearer is (from its 403), or the status when not 403. */
  async function whoAmI(token: string): Promise<string | number> {
    const res = await httpsCall(deny.port, deny.certificate.ca ?? '', 'GET', '/version', { headers: bearer(token) });
    if (res.status !== 403) return res.status;
    return /User "([^"]*)"/.exec(res.json().message)?.[1] ?? '';
  }

  async function createServiceAccount(ns: string, name: string): Promise<any> {
    const res = await fx.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { body: { metadata: { name } } });
    assert.equal(res.status, 201, res.text);
    return res.json();
  }

  function requestToken(ns: string, name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Promise<TestResponse> {
    return fx.request('POST', `/api/v1/namespaces/${ns}/serviceaccounts/${name}/token`, {
      body: { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', metadata, spec },
    });
  }

  async function token(ns: string, name: string, spec: Record<string, unknown> = {}): Promise<string> {
    const res = await requestToken(ns, name, spec);
    assert.equal(res.status, 201, res.text);
    return res.json().status.token;
  }

  async function createPod(ns: string, name: string, serviceAccountName: string): Promise<any> {
    const res = await fx.request('POST', `/api/v1/namespaces/${ns}/pods`, {
      body: { metadata: { name }, spec: { serviceAccountName, containers: [{ name: 'c', image: 'busybox' }] } },
    });
    assert.equal(res.status, 201, res.text);
    return res.json();
  }

  /**
   * GETs path with token until the answer is want (or 15 s have passed) and returns the last answer.
   * As kube's, token validation reads the watch cache first, so a deletion counts once the cache
   * has seen it: milliseconds, longer on a machine the whole test suite keeps busy.
   */
  async function untilStatus(path: string, token: string, want: number): Promise<TestResponse> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const res = await fx.request('GET', path, { headers: bearer(token) });
      if (res.status === want || Date.now() > deadline) return res;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async function remove(path: string): Promise<void> {
    const res = await fx.request('DELETE', path, { body: { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 } });
    assert.ok(res.status === 200 || res.status === 202, res.text);
  }

  describe('serviceaccounts/token', () => {
    it('issues a bound token with kube claims and answers 201 with a TokenRequest', async () => {
      const sa = await createServiceAccount('default', 'robot');
      const before = Math.floor(Date.now() / 1000);
      const res = await requestToken('default', 'robot');
      assert.equal(res.status, 201, res.text);
      const tr = res.json();
      assert.equal(tr.kind, 'TokenRequest');
      assert.equal(tr.apiVersion, 'authentication.k8s.io/v1');
      assert.equal(tr.metadata.name, 'robot');
      assert.equal(tr.metadata.namespace, 'default');
      assert.equal(tr.metadata.managedFields, undefined);
      assert.deepEqual(tr.spec, { audiences: [testIssuer], expirationSeconds: 3600 });
      const { header, claims } = decodeToken(tr.status.token);
      assert.deepEqual(header, { alg: 'RS256', kid: keyIdOf(key.publicKey) });
      assert.deepEqual(Object.keys(claims), ['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
      assert.equal(claims.iss, testIssuer);
      assert.equal(claims.sub, 'system:serviceaccount:default:robot');
      assert.deepEqual(claims.aud, [testIssuer]);
      assert.ok(claims.iat >= before && claims.iat <= before + 5);
      assert.equal(claims.nbf, claims.iat);
      assert.equal(claims.exp - claims.iat, 3600);
      assert.match(claims.jti, /^[0-9a-f-]{36}$/);
      assert.deepEqual(claims['kubernetes.io'], { namespace: 'default', serviceaccount: { name: 'robot', uid: sa.metadata.uid } });
      assert.equal(Date.parse(tr.status.expirationTimestamp) / 1000, claims.exp);
    });

    it('authenticates as the service account', async () => {
      await createServiceAccount('default', 'reader');
      const t = await token('default', 'reader');
      const ok = await fx.request('GET', '/api/v1/namespaces/default/configmaps', { headers: bearer(t) });
      assert.equal(ok.status, 200, ok.text);
      assert.equal(await whoAmI(t), 'system:serviceaccount:default:reader');
    });

    it('binds to a pod of the service account; the pod gone, its tokens are 401', async () => {
      await createServiceAccount('default', 'podsa');
      const pod = await createPod('default', 'bound', 'podsa');
      const spec = { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'bound', uid: pod.metadata.uid } };
      const first = await token('default', 'podsa', spec);
      const unused = await token('default', 'podsa', spec);
      assert.deepEqual(decodeToken(first).claims['kubernetes.io'].pod, { name: 'bound', uid: pod.metadata.uid });
      assert.equal(await whoAmI(first), 'system:serviceaccount:default:podsa');

      const wrongUid = await requestToken('default', 'podsa', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'bound', uid: 'not-the-uid' } });
      assert.equal(wrongUid.status, 409);
      assert.equal(
        wrongUid.json().message,
        'Operation cannot be fulfilled on Pod "bound": the UID in the bound object reference (not-the-uid) does not match the UID in record. The object might have been deleted and then recreated',
      );
      await createServiceAccount('default', 'other');
      const otherPod = await requestToken('default', 'other', spec);
      assert.equal(otherPod.status, 400);
      assert.equal(otherPod.json().message, 'cannot bind token for serviceaccount "other" to pod running with different serviceaccount name.');

      await remove('/api/v1/namespaces/default/pods/bound');
      const gone = await untilStatus('/api/v1/namespaces/default/configmaps', unused, 401);
      assert.equal(gone.status, 401);
      assert.equal(gone.json().reason, 'Unauthorized');
    });

    it('binds to a secret; other kinds are refused', async () => {
      await createServiceAccount('default', 'secretsa');
      const created = await fx.request('POST', '/api/v1/namespaces/default/secrets', { body: { metadata: { name: 'anchor' } } });
      const secret = created.json();
      const t = await token('default', 'secretsa', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'anchor' } });
      assert.deepEqual(decodeToken(t).claims['kubernetes.io'].secret, { name: 'anchor', uid: secret.metadata.uid });
      assert.equal(await whoAmI(t), 'system:serviceaccount:default:secretsa');
      const cm = await requestToken('default', 'secretsa', { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } });
      assert.equal(cm.status, 400);
      assert.equal(cm.json().message, 'cannot bind token to object of type /v1, Kind=ConfigMap');
      const missing = await requestToken('default', 'secretsa', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'absent' } });
      assert.equal(missing.status, 404);
      assert.equal(missing.json().message, 'secrets "absent" not found');
    });

    it('refuses bad requests with kube messages', async () => {
      await createServiceAccount('default', 'strict');
      const short = await requestToken('default', 'strict', { expirationSeconds: 60 });
      assert.equal(short.status, 422);
      assert.equal(short.json().message, 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes');
      const name = await requestToken('default', 'strict', {}, { name: 'someone-else' });
      assert.equal(name.status, 422);
      assert.equal(name.json().message, 'TokenRequest.authentication.k8s.io "strict" is invalid: metadata.name: Invalid value: "someone-else": must match the service account name if specified');
      const nobody = await requestToken('default', 'nobody');
      assert.equal(nobody.status, 404);
      assert.equal(nobody.json().message, 'serviceaccounts "nobody" not found');
      const get = await fx.request('GET', '/api/v1/namespaces/default/serviceaccounts/strict/token');
      assert.equal(get.status, 405);
    });

    it('shortens to --service-account-max-token-expiration with a warning, and extends 3607 s pod tokens', async () => {
      await createServiceAccount('default', 'longlived');
      const res = await requestToken('default', 'longlived', { expirationSeconds: 36000 });
      assert.equal(res.status, 201);
      assert.equal(res.headers.warning, '299 - "requested expiration of 36000 seconds shortened to 7200 seconds"');
      const tr = res.json();
      assert.equal(tr.spec.expirationSeconds, 7200);
      const claims = decodeToken(tr.status.token).claims;
      assert.equal(claims.exp - claims.iat, 7200);

      const pod = await createPod('default', 'legacy-client', 'longlived');
      const ext = await requestToken('default', 'longlived', { expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'legacy-client', uid: pod.metadata.uid } });
      const extended = ext.json();
      const c = decodeToken(extended.status.token).claims;
      assert.equal(c.exp - c.iat, 365 * 24 * 3600);
      assert.equal(c['kubernetes.io'].warnafter, c.iat + 3607);
      assert.equal(Date.parse(extended.status.expirationTimestamp) / 1000, c.iat + 3607);
      // Not for other audiences than the API's.
      const other = await requestToken('default', 'longlived', { audiences: ['vault'], expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'legacy-client' } });
      const o = decodeToken(other.json().status.token).claims;
      assert.equal(o.exp - o.iat, 3607);
      assert.equal(o['kubernetes.io'].warnafter, undefined);
    });
  });

  describe('service account token authentication', () => {
    const api = '/api/v1/namespaces/default/configmaps';

    it('a deleted service account revokes its tokens, also after it is created again', async () => {
      await createServiceAccount('default', 'revoked');
      const used = await token('default', 'revoked');
      const unused = await token('default', 'revoked');
      assert.equal((await fx.request('GET', api, { headers: bearer(used) })).status, 200);
      await remove('/api/v1/namespaces/default/serviceaccounts/revoked');
      assert.equal((await untilStatus(api, unused, 401)).status, 401);
      await createServiceAccount('default', 'revoked');
      assert.equal(await whoAmI(unused), 401);
    });

    it('refuses expired tokens, other audiences, unknown key ids and bad signatures', async () => {
      const sa = await createServiceAccount('default', 'checked');
      const good = await token('default', 'checked');
      const { header, claims } = decodeToken(good);
      const sign = (c: Record<string, unknown>, k = key.privateKey, kid: string = header.kid): string =>
        jwt.sign(c, k, { algorithm: 'RS256', header: { alg: 'RS256', kid }, noTimestamp: true });

      // The same claims re-signed with the server's key are fine; that proves the cases below test one thing each.
      assert.equal(await whoAmI(sign(claims)), 'system:serviceaccount:default:checked');
      const now = Math.floor(Date.now() / 1000);
      const expired = sign({ ...claims, iat: now - 7200, nbf: now - 7200, exp: now - 120 });
      assert.equal(await whoAmI(expired), 401);
      // Within kube's one-minute leeway an expired token still works.
      assert.equal(await whoAmI(sign({ ...claims, jti: 'x', exp: now - 30 })), 'system:serviceaccount:default:checked');
      const audience = await token('default', 'checked', { audiences: ['vault'] });
      assert.equal(await whoAmI(audience), 401);
      const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
      assert.equal(await whoAmI(sign(claims, stranger.privateKey, keyIdOf(stranger.publicKey))), 401);
      assert.equal(await whoAmI(sign(claims, stranger.privateKey)), 401);
      const [h, p, s] = good.split('.') as [string, string, string];
      const flipped = `${h}.${p}.${s.slice(0, 10)}${s[10] === 'A' ? 'B' : 'A'}${s.slice(11)}`;
      assert.equal(await whoAmI(flipped), 401);
      const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'system:serviceaccount:kube-system:admin' })).toString('base64url')}.${s}`;
      assert.equal(await whoAmI(forged), 401);
      assert.equal(await whoAmI(sign({ ...claims, 'kubernetes.io': { ...claims['kubernetes.io'], serviceaccount: { name: 'checked', uid: 'other' } } })), 401);
      assert.ok(sa.metadata.uid);
    });
  });

  describe('service account issuer discovery', () => {
    it('serves the OpenID configuration and the JWKS, which verify issued tokens', async () => {
      const conf = await fx.request('GET', '/.well-known/openid-configuration');
      assert.equal(conf.status, 200);
      assert.equal(conf.headers['content-type'], 'application/json');
      assert.equal(conf.headers['cache-control'], 'public, max-age=3600');
      assert.deepEqual(conf.json(), {
        issuer: testIssuer,
        jwks_uri: `https://192.0.2.10:${fx.port}/openid/v1/jwks`,
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
      const keys = await fx.request('GET', '/openid/v1/jwks');
      assert.equal(keys.status, 200);
      assert.equal(keys.headers['content-type'], 'application/jwk-set+json');
      assert.equal(keys.headers['cache-control'], 'public, max-age=3600');
      const set = keys.json();
      assert.equal(set.keys.length, 1);
      const jwk = set.keys[0];
      assert.deepEqual(Object.keys(jwk), ['use', 'kty', 'kid', 'alg', 'n', 'e']);
      assert.equal(jwk.use, 'sig');

      await createServiceAccount('default', 'discovered');
      const t = await token('default', 'discovered');
      const [h, p, s] = t.split('.') as [string, string, string];
      assert.equal(decodeToken(t).header.kid, jwk.kid);
      const publicKey = createPublicKey({ key: jwk, format: 'jwk' });
      assert.equal(verify('sha256', Buffer.from(`${h}.${p}`), publicKey, Buffer.from(s, 'base64url')), true);
      assert.equal(verify('sha256', Buffer.from(`${h}.${p}x`), publicKey, Buffer.from(s, 'base64url')), false);

      // They are non-resource paths behind the normal filters: authorized like any other.
      const denied = await httpsCall(deny.port, deny.certificate.ca ?? '', 'GET', '/openid/v1/jwks');
      assert.equal(denied.status, 403);
      assert.equal(denied.json().message, 'forbidden: User "system:anonymous" cannot get path "/openid/v1/jwks": Everything is forbidden.');
    });
  });

  describe('legacy Secret-based tokens', () => {
    async function secret(ns: string, name: string): Promise<any> {
      return (await fx.request('GET', `/api/v1/namespaces/${ns}/secrets/${name}`)).json();
    }

    async function waitFor<T>(what: string, fn: () => Promise<T | undefined>): Promise<T> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const v = await fn();
        if (v !== undefined) return v;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    it('the token controller fills the Secret; its token authenticates until the Secret goes', async () => {
      const sa = await createServiceAccount('default', 'legacy');
      const body = { metadata: { name: 'legacy-token', annotations: { 'kubernetes.io/service-account.name': 'legacy' } }, type: 'kubernetes.io/service-account-token' };
      assert.equal((await fx.request('POST', '/api/v1/namespaces/default/secrets', { body })).status, 201);
      const filled = await waitFor('the token', async () => ((await secret('default', 'legacy-token')).data?.token ? secret('default', 'legacy-token') : undefined));
      assert.equal(filled.metadata.annotations['kubernetes.io/service-account.uid'], sa.metadata.uid);
      assert.equal(Buffer.from(filled.data.namespace, 'base64').toString(), 'default');
      assert.equal(Buffer.from(filled.data['ca.crt'], 'base64').toString(), fx.ca);
      const t = Buffer.from(filled.data.token, 'base64').toString();
      const { header, claims } = decodeToken(t);
      assert.deepEqual(header, { alg: 'RS256', kid: keyIdOf(key.publicKey) });
      assert.deepEqual(claims, {
        iss: 'kubernetes/serviceaccount',
        'kubernetes.io/serviceaccount/namespace': 'default',
        'kubernetes.io/serviceaccount/secret.name': 'legacy-token',
        'kubernetes.io/serviceaccount/service-account.name': 'legacy',
        'kubernetes.io/serviceaccount/service-account.uid': sa.metadata.uid,
        sub: 'system:serviceaccount:default:legacy',
      });
      assert.equal(await whoAmI(t), 'system:serviceaccount:default:legacy');
      // The use is recorded on the Secret, as kube's legacy token tracking does.
      const today = new Date().toISOString().slice(0, 10);
      await waitFor('the last-used label', async () => ((await secret('default', 'legacy-token')).metadata.labels?.['kubernetes.io/legacy-token-last-used'] === today ? true : undefined));

      await remove('/api/v1/namespaces/default/secrets/legacy-token');
      // The Secret lookup reads the watch cache first, as kube's does: the deletion reaches it shortly after.
      const gone = Date.now() + 15_000;
      let status = 0;
      while ((status = (await fx.request('GET', '/api/v1/namespaces/default/configmaps', { headers: bearer(t) })).status) !== 401 && Date.now() < gone) await new Promise((r) => setTimeout(r, 100));
      assert.equal(status, 401);
    });

    it('a token Secret of a missing service account is deleted; a deleted account takes its Secrets along', async () => {
      const orphan = { metadata: { name: 'orphan-token', annotations: { 'kubernetes.io/service-account.name': 'ghost' } }, type: 'kubernetes.io/service-account-token' };
      assert.equal((await fx.request('POST', '/api/v1/namespaces/default/secrets', { body: orphan })).status, 201);
      await waitFor('the orphan to go', async () => ((await fx.request('GET', '/api/v1/namespaces/default/secrets/orphan-token')).status === 404 ? true : undefined));

      await createServiceAccount('default', 'shortlived');
      const owned = { metadata: { name: 'owned-token', annotations: { 'kubernetes.io/service-account.name': 'shortlived' } }, type: 'kubernetes.io/service-account-token' };
      assert.equal((await fx.request('POST', '/api/v1/namespaces/default/secrets', { body: owned })).status, 201);
      await waitFor('the token', async () => ((await secret('default', 'owned-token')).data?.token ? true : undefined));
      await remove('/api/v1/namespaces/default/serviceaccounts/shortlived');
      await waitFor('the Secret to go', async () => ((await fx.request('GET', '/api/v1/namespaces/default/secrets/owned-token')).status === 404 ? true : undefined));
    });
  });
});
