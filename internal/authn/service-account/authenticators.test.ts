import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { newNotFound } from '../../apierrors/factories.js';
import type { Logger } from '../../observability/logging.js';
import { createMetrics, type ServerMetrics } from '../../observability/metrics.js';
import type { GetOptions, RestStorage } from '../../registry/interface.js';
import type { RequestContext } from '../../request/context.js';
import { boundClaims, legacyClaims } from '../../serviceaccount/claims.js';
import type { ServiceAccountTokenConfig } from '../../serviceaccount/config.js';
import { publicKeyEntry } from '../../serviceaccount/keys.js';
import { TokenGenerator } from '../../serviceaccount/token-generator.js';
import { AuthenticationError, type AuthenticationResult } from '../interface.js';
import { serviceAccountTokenAuthenticators } from './authenticators.js';

const issuer = 'https://issuer';
const key = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const generator = new TokenGenerator(issuer, key.privateKey);
const legacyGenerator = new TokenGenerator('kubernetes/serviceaccount', key.privateKey);
const config: ServiceAccountTokenConfig = {
  issuers: [issuer],
  apiAudiences: [issuer, 'api'],
  verificationKeys: [publicKeyEntry(key.publicKey)],
  generator,
  legacyGenerator,
  maxExpirationSeconds: 0,
  extendExpiration: true,
  lookup: true,
};
const silent = { warn: () => undefined, info: () => undefined, error: () => undefined, v: () => undefined } as unknown as Logger;

/** Objects by "resource/namespace/name"; cached ones answer resourceVersion "0", live ones "". */
class FakeStore {
  readonly cached = new Map<string, KubeObject>();
  readonly live = new Map<string, KubeObject>();
  readonly reads: string[] = [];

  put(resource: string, obj: KubeObject, where: 'both' | 'live' = 'both'): KubeObject {
    const k = `${resource}/${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
    this.live.set(k, obj);
    if (where === 'both') this.cached.set(k, obj);
    return obj;
  }

  remove(resource: string, namespace: string, name: string): void {
    this.cached.delete(`${resource}/${namespace}/${name}`);
    this.live.delete(`${resource}/${namespace}/${name}`);
  }

  storageOf = (_group: string, resource: string): RestStorage => ({
    get: async (ctx: RequestContext, name: string, opts: GetOptions) => {
      const k = `${resource}/${ctx.requestInfo.namespace}/${name}`;
      this.reads.push(`${opts.resourceVersion === '0' ? 'cache' : 'live'}:${k}`);
      const obj = (opts.resourceVersion === '0' ? this.cached : this.live).get(k);
      if (!obj) throw newNotFound({ group: '', resource }, name);
      return obj;
    },
  });
}

function setup(cfg: ServiceAccountTokenConfig = config): {
  store: FakeStore;
  metrics: ServerMetrics;
  auth: { authenticateToken(t: string, a: readonly string[]): Promise<AuthenticationResult | undefined> };
} {
  const store = new FakeStore();
  const metrics = createMetrics();
  const [legacy, bound] = serviceAccountTokenAuthenticators(cfg, { storageOf: store.storageOf, log: silent, metrics });
  return {
    store,
    metrics,
    auth: {
      authenticateToken: async (t, a) => (await legacy!.authenticateToken(t, a)) ?? bound!.authenticateToken(t, a),
    },
  };
}

const account = (uid = 'sa-uid', extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({ metadata: { name: 'robot', namespace: 'ns', uid, ...extra } });
const now = () => Math.floor(Date.now() / 1000);
const tokenFor = (extra: Partial<Parameters<typeof boundClaims>[0]> = {}, gen = generator): string =>
  gen.generate(boundClaims({ namespace: 'ns', serviceAccount: { name: 'robot', uid: 'sa-uid' }, audiences: [issuer], expirationSeconds: 3600, jti: 'the-jti', ...extra }));

async function rejects(p: Promise<unknown>, message: string): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AuthenticationError, String(err));
    assert.equal((err as Error).message, message);
    return true;
  });
}

describe('bound service account tokens', () => {
  it("name the service account with kube's groups and extra, and the audiences both sides share", async () => {
    const { store, auth } = setup();
    store.put('serviceaccounts', account());
    store.put('pods', { metadata: { name: 'p', namespace: 'ns', uid: 'pod-uid' } });
    const t = tokenFor({ pod: { name: 'p', uid: 'pod-uid' }, node: { name: 'n1', uid: 'node-uid' }, audiences: ['vault', 'api'] });
    const r = await auth.authenticateToken(t, []);
    assert.deepEqual(r, {
      user: {
        name: 'system:serviceaccount:ns:robot',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
        extra: {
          'authentication.kubernetes.io/pod-name': ['p'],
          'authentication.kubernetes.io/pod-uid': ['pod-uid'],
          'authentication.kubernetes.io/credential-id': ['JTI=the-jti'],
          'authentication.kubernetes.io/node-name': ['n1'],
          'authentication.kubernetes.io/node-uid': ['node-uid'],
        },
      },
      audiences: ['api'],
    });
    // Both lookups come from the cache; the pod-bound token's node is taken from its claims.
    assert.deepEqual(store.reads.sort(), ['cache:pods/ns/p', 'cache:serviceaccounts/ns/robot']);
    assert.deepEqual((await auth.authenticateToken(t, ['vault']))?.audiences, ['vault']);
    await rejects(auth.authenticateToken(t, ['other']), 'token audiences ["vault" "api"] is invalid for the target audiences ["other"]');
  });

  it('ask etcd when the cache does not have the service account yet', async () => {
    const { store, auth } = setup();
    store.put('serviceaccounts', account(), 'live');
    assert.equal((await auth.authenticateToken(tokenFor(), []))?.user.name, 'system:serviceaccount:ns:robot');
    assert.deepEqual(store.reads, ['cache:serviceaccounts/ns/robot', 'live:serviceaccounts/ns/robot']);
  });

  it('are refused outside their validity window, beyond the one-minute leeway', async () => {
    const { store, auth } = setup();
    store.put('serviceaccounts', account());
    await rejects(auth.authenticateToken(tokenFor({ now: now() - 3600 - 61 }), []), 'service account token has expired');
    assert.ok(await auth.authenticateToken(tokenFor({ now: now() - 3600 - 50 }), []));
    await rejects(auth.authenticateToken(tokenFor({ now: now() + 120 }), []), 'service account token is not valid yet');
    const iatOnly = generator.generate({ ...boundClaims({ namespace: 'ns', serviceAccount: { name: 'robot', uid: 'sa-uid' }, audiences: [issuer], expirationSeconds: 3600 }), nbf: now() - 10, iat: now() + 120 });
    await rejects(auth.authenticateToken(iatOnly, []), 'service account token is issued in the future');
  });

  it('are revoked with their service account, pod, secret or node', async () => {
    const { store, auth } = setup();
    await rejects(auth.authenticateToken(tokenFor(), []), 'serviceaccounts "robot" not found');
    store.put('serviceaccounts', account('new-uid'));
    await rejects(auth.authenticateToken(tokenFor(), []), 'service account UID (new-uid) does not match claim (sa-uid)');
    store.put('serviceaccounts', account('sa-uid', { deletionTimestamp: new Date(Date.now() - 120_000).toISOString() }));
    await rejects(auth.authenticateToken(tokenFor(), []), 'service account ns/robot has been deleted');
    // Marked for deletion within the leeway: still valid, as in kube.
    store.put('serviceaccounts', account('sa-uid', { deletionTimestamp: new Date(Date.now() - 10_000).toISOString() }));
    assert.ok(await auth.authenticateToken(tokenFor(), []));
    store.put('serviceaccounts', account());

    await rejects(auth.authenticateToken(tokenFor({ pod: { name: 'p', uid: 'pu' } }), []), 'service account token has been invalidated');
    store.put('pods', { metadata: { name: 'p', namespace: 'ns', uid: 'other' } });
    await rejects(auth.authenticateToken(tokenFor({ pod: { name: 'p', uid: 'pu' } }), []), 'pod UID (other) does not match service account pod ref claim (pu)');
    await rejects(auth.authenticateToken(tokenFor({ secret: { name: 's', uid: 'su' } }), []), 'service account token has been invalidated');
    store.put('secrets', { metadata: { name: 's', namespace: 'ns', uid: 'su', deletionTimestamp: new Date(Date.now() - 120_000).toISOString() } });
    await rejects(auth.authenticateToken(tokenFor({ secret: { name: 's', uid: 'su' } }), []), 'service account token has been invalidated');
    await rejects(auth.authenticateToken(tokenFor({ node: { name: 'n', uid: 'nu' } }), []), 'service account token has been invalidated');
    store.put('nodes', { metadata: { name: 'n', uid: 'nu' } });
    assert.deepEqual((await auth.authenticateToken(tokenFor({ node: { name: 'n', uid: 'nu' } }), []))?.user.extra?.['authentication.kubernetes.io/node-name'], ['n']);
  });

  it('leave tokens of other issuers alone; refuse unknown key ids and bad signatures', async () => {
    const { store, auth } = setup();
    store.put('serviceaccounts', account());
    assert.equal(await auth.authenticateToken(tokenFor({}, new TokenGenerator('https://elsewhere', key.privateKey)), []), undefined);
    assert.equal(await auth.authenticateToken('not-a-jwt', []), undefined);
    await rejects(auth.authenticateToken(tokenFor({}, new TokenGenerator(issuer, stranger.privateKey)), []), 'invalid signature, no keys found');
    const [h, p] = tokenFor().split('.');
    const other = tokenFor({}, new TokenGenerator(issuer, stranger.privateKey)).split('.')[2];
    await rejects(auth.authenticateToken(`${h}.${p}.${other}`, []), 'go-jose/go-jose: error in cryptographic primitive');
  });
});

describe('legacy service account tokens', () => {
  const legacyToken = legacyGenerator.generate(legacyClaims({ namespace: 'ns', name: 'robot', uid: 'sa-uid' }, 'robot-token'));
  const secret = (token: string, labels?: Record<string, string>): KubeObject => ({
    metadata: { name: 'robot-token', namespace: 'ns', uid: 'secret-uid', ...(labels ? { labels } : {}) },
    type: 'kubernetes.io/service-account-token',
    data: { token: Buffer.from(token).toString('base64') },
  });

  it('name the service account when the Secret holds the token and the account exists', async () => {
    const { store, auth } = setup();
    store.put('serviceaccounts', account());
    store.put('secrets', secret(legacyToken, { 'kubernetes.io/legacy-token-last-used': new Date().toISOString().slice(0, 10) }));
    const r = await auth.authenticateToken(legacyToken, []);
    assert.deepEqual(r, {
      user: { name: 'system:serviceaccount:ns:robot', uid: 'sa-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] },
      audiences: [issuer, 'api'],
      // Not in the account's secrets: a manually created token, as kube's audit annotation says.
      auditAnnotations: { 'authentication.k8s.io/legacy-token-manual-secret': 'robot-token' },
    });
    await rejects(auth.authenticateToken(legacyToken, ['vault']), `token audiences ["${issuer}" "api"] is invalid for the target audiences ["vault"]`);
  });

  it('are refused when the Secret is gone, holds another token or is marked invalid, or the account changed', async () => {
    const { store, auth } = setup();
    store.put('serviceaccounts', account());
    await rejects(auth.authenticateToken(legacyToken, []), 'Token has been invalidated');
    store.put('secrets', secret('something else'));
    await rejects(auth.authenticateToken(legacyToken, []), "Token does not match server's copy");
    store.put('secrets', secret(legacyToken, { 'kubernetes.io/legacy-token-invalid-since': '2024-01-01', 'kubernetes.io/legacy-token-last-used': new Date().toISOString().slice(0, 10) }));
    await rejects(
      auth.authenticateToken(legacyToken, []),
      "the token in secret ns/robot-token for service account ns/robot has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the 'kubernetes.io/legacy-token-invalid-since' label from the secret to temporarily allow use of this token",
    );
    store.put('secrets', secret(legacyToken, { 'kubernetes.io/legacy-token-last-used': new Date().toISOString().slice(0, 10) }));
    store.put('serviceaccounts', account('new-uid'));
    await rejects(auth.authenticateToken(legacyToken, []), 'ServiceAccount UID (new-uid) does not match claim (sa-uid)');
    store.remove('serviceaccounts', 'ns', 'robot');
    await rejects(auth.authenticateToken(legacyToken, []), 'serviceaccounts "robot" not found');
  });

  it('with --service-account-lookup=false only the claims are checked', async () => {
    const { store, auth } = setup({ ...config, lookup: false });
    assert.equal((await auth.authenticateToken(legacyToken, []))?.user.name, 'system:serviceaccount:ns:robot');
    assert.deepEqual(store.reads, []);
    const bad = legacyGenerator.generate({ ...legacyClaims({ namespace: 'ns', name: 'robot', uid: 'u' }, 's'), sub: 'system:serviceaccount:other:robot' });
    await rejects(auth.authenticateToken(bad, []), 'sub claim is invalid');
  });

  it('record which kind of legacy token was used, and warn the client of an auto-generated one', async () => {
    const { store, auth, metrics } = setup();
    store.put('serviceaccounts', account());
    store.put('secrets', secret(legacyToken, { 'kubernetes.io/legacy-token-last-used': new Date().toISOString().slice(0, 10) }));
    await auth.authenticateToken(legacyToken, []);
    store.put('serviceaccounts', { ...account(), secrets: [{ name: 'robot-token' }] } as KubeObject);
    store.put('secrets', secret(legacyToken, { 'kubernetes.io/legacy-token-last-used': new Date().toISOString().slice(0, 10) }));
    const r = await auth.authenticateToken(legacyToken, []);
    assert.deepEqual(r?.auditAnnotations, { 'authentication.k8s.io/legacy-token-autogenerated-secret': 'robot-token' });
    assert.deepEqual(r?.warnings, ['Use tokens from the TokenRequest API or manually created secret-based tokens instead of auto-generated secret-based tokens.']);
    store.put('secrets', secret(legacyToken, { 'kubernetes.io/legacy-token-invalid-since': '2024-01-01', 'kubernetes.io/legacy-token-last-used': new Date().toISOString().slice(0, 10) }));
    await assert.rejects(auth.authenticateToken(legacyToken, []), (err: unknown) => {
      assert.ok(err instanceof AuthenticationError);
      assert.deepEqual(err.auditAnnotations, { 'authentication.k8s.io/legacy-token-invalidated': 'robot-token/ns' });
      return true;
    });
    const text = await metrics.text();
    metrics.stop();
    assert.match(text, /^serviceaccount_legacy_tokens_total 3$/m);
    assert.match(text, /^serviceaccount_legacy_manual_token_uses_total 1$/m);
    assert.match(text, /^serviceaccount_legacy_auto_token_uses_total 1$/m);
    assert.match(text, /^serviceaccount_invalid_legacy_auto_token_uses_total 1$/m);
    assert.match(text, /^# HELP serviceaccount_legacy_tokens_total \[ALPHA\] Cumulative legacy service account tokens used$/m);
  });
});

describe('stale bound tokens', () => {
  it('are accepted past their warnafter time with the stale-token audit annotation, and counted', async () => {
    const { store, auth, metrics } = setup();
    store.put('serviceaccounts', account());
    const fresh = await auth.authenticateToken(tokenFor({ warnAfterSeconds: 3607 }), []);
    assert.equal(fresh?.auditAnnotations, undefined);
    // Issued 4000 s ago with a one-year expiry (an extended token) and a warning after 3607 s.
    const stale = tokenFor({ now: now() - 4000, expirationSeconds: 365 * 24 * 3600, warnAfterSeconds: 3607 });
    const r = await auth.authenticateToken(stale, []);
    const note = r?.auditAnnotations?.['authentication.k8s.io/stale-token'] ?? '';
    const m = /^subject: system:serviceaccount:ns:robot, seconds after warning threshold: (\d+)$/.exec(note);
    assert.ok(m, note);
    assert.ok(Math.abs(Number(m[1]) - 393) <= 2, note);
    // A token without warnafter counts as neither.
    await auth.authenticateToken(tokenFor(), []);
    const text = await metrics.text();
    metrics.stop();
    assert.match(text, /^serviceaccount_valid_tokens_total 1$/m);
    assert.match(text, /^serviceaccount_stale_tokens_total 1$/m);
  });
});
