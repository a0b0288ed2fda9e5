/**
 * Authentication over HTTPS against the real server and etcd: client certificates (valid, from
 * another CA, expired, not for client auth), the front proxy, a token file, bootstrap token
 * Secrets created through the API, with --anonymous-auth=false. Every bad credential is 401 with
 * kube's Status and counted as an "error" attempt; a request without credentials is a "failure".
 * Then the server restarts with --authorization-mode=AlwaysDeny, whose message names each user.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  clientCert,
  createCertificateAuthority,
  expiredClientCert,
  issueCertificate,
  keepAliveAgent,
  tempDir,
  tlsCall,
  writeTemp,
  type CallOptions,
  type CertificateAuthority,
  type IssuedCertificate,
} from '../support/client-certs.js';
import { useServer } from '../support/server.js';
import type { ServerOptions } from '../../internal/server/options/flags.js';
import { defaultAuthorizationOptions } from '../../internal/server/options/authorization.js';

const unauthorized = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 };

let clientCA: CertificateAuthority;
let proxyCA: CertificateAuthority;
let otherCA: CertificateAuthority;

const fx = useServer({}, async () => {
  clientCA = await createCertificateAuthority('client-ca');
  proxyCA = await createCertificateAuthority('front-proxy-ca');
  otherCA = await createCertificateAuthority('client-ca');
  const dir = await tempDir();
  return [
    '--anonymous-auth=false',
    `--client-ca-file=${await writeTemp(dir, 'ca.crt', clientCA.certPem)}`,
    `--requestheader-client-ca-file=${await writeTemp(dir, 'front-proxy-ca.crt', proxyCA.certPem)}`,
    '--requestheader-allowed-names=front-proxy-client',
    '--requestheader-username-headers=X-Remote-User',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    `--token-auth-file=${await writeTemp(dir, 'tokens.csv', 'static-token-1,kubelet,uid-1,system:nodes\n')}`,
    '--enable-bootstrap-token-auth',
  ];
});

const call = (path: string, opts: CallOptions = {}, method = 'GET') => tlsCall(fx.port, fx.ca, method, path, opts);
const bearer = (token: string): CallOptions => ({ headers: { Authorization: `Bearer ${token}` } });

async function attempts(admin: IssuedCertificate): Promise<Record<string, number>> {
  const text = (await call('/metrics', { cert: admin })).text;
  const out: Record<string, number> = { success: 0, failure: 0, error: 0 };
  for (const m of text.matchAll(/^authentication_attempts\{result="(\w+)"\} (\d+)$/gm)) out[m[1] as string] = Number(m[2]);
  return out;
}

async function until(pred: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function bootstrapSecret(id: string, secret: string, data: Record<string, string> = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' },
    type: 'bootstrap.kubernetes.io/token',
    stringData: { 'token-id': id, 'token-secret': secret, 'usage-bootstrap-authentication': 'true', 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token', ...data },
  };
}

describe('authentication over HTTPS', () => {
  let admin: IssuedCertificate;
  let proxy: IssuedCertificate;
  before(async () => {
    admin = await clientCert(clientCA, 'admin', ['system:masters']);
    proxy = await clientCert(proxyCA, 'front-proxy-client');
  });

  it('answers a request without credentials 401 and counts a failure', async () => {
    const before = await attempts(admin);
    const res = await call('/api/v1/namespaces');
    assert.equal(res.status, 401);
    assert.deepEqual(res.json(), unauthorized);
    const after = await attempts(admin);
    assert.equal(after.failure - (before.failure ?? 0), 1);
    assert.equal(after.error, before.error);
  });

  it('serves a client certificate user, many requests on one connection', async () => {
    const agent = keepAliveAgent(admin);
    try {
      for (let i = 0; i < 3; i++) assert.equal((await call('/api', { agent })).status, 200);
      const created = await call('/api/v1/namespaces/default/configmaps', { agent, body: { metadata: { name: 'by-cert' }, data: { a: 'b' } } }, 'POST');
      assert.equal(created.status, 201, created.text);
    } finally {
      agent.destroy();
    }
  });

  it('serves static token and front-proxy users', async () => {
    assert.equal((await call('/api', bearer('static-token-1'))).status, 200);
    const viaProxy = await call('/api', { cert: proxy, headers: { 'X-Remote-User': 'jane@example.com', 'X-Remote-Group': 'devs', 'X-Remote-Extra-Scopes': 'all' } });
    assert.equal(viaProxy.status, 200);
    const metrics = (await call('/metrics', { cert: admin })).text;
    assert.match(metrics, /^authenticated_user_requests\{username="admin"\} [1-9]/m);
    assert.match(metrics, /^authenticated_user_requests\{username="kubelet"\} [1-9]/m);
    assert.match(metrics, /^authenticated_user_requests\{username="email_id"\} [1-9]/m);
  });

  it('serves bootstrap tokens from Secrets created through the API, and refuses expired ones', async () => {
    const created = await call('/api/v1/namespaces/kube-system/secrets', { cert: admin, body: bootstrapSecret('abcdef', '0123456789abcdef') }, 'POST');
    assert.equal(created.status, 201, created.text);
    await until(async () => (await call('/api', bearer('abcdef.0123456789abcdef'))).status === 200);
    const expired = bootstrapSecret('zyxwvu', '0123456789abcdef', { expiration: new Date(Date.now() - 60_000).toISOString() });
    assert.equal((await call('/api/v1/namespaces/kube-system/secrets', { cert: admin, body: expired }, 'POST')).status, 201);
    // Deleted: the informer drops it and the token stops working (after the 10 s success cache).
    const notYetUsed = bootstrapSecret('qwerty', '0123456789abcdef');
    assert.equal((await call('/api/v1/namespaces/kube-system/secrets', { cert: admin, body: notYetUsed }, 'POST')).status, 201);
    await until(async () => (await call('/api', bearer('qwerty.0123456789abcdef'))).status === 200);
    assert.equal((await call('/api/v1/namespaces/kube-system/secrets/bootstrap-token-qwerty', { cert: admin }, 'DELETE')).status, 200);
    await until(async () => (await call('/api', bearer('qwerty.0123456789abcdef'))).status === 401, 15_000);
    assert.equal((await call('/api', bearer('zyxwvu.0123456789abcdef'))).status, 401);
  });

  it('answers every bad credential 401 with the Status and counts each as an error', async () => {
    const bad: Array<[string, CallOptions]> = [
      ['certificate from another CA', { cert: await clientCert(otherCA, 'admin', ['system:masters']) }],
      ['expired certificate', { cert: await expiredClientCert(clientCA, 'admin') }],
      ['server-only certificate', { cert: await issueCertificate(clientCA, { commonName: 'admin', usage: 'server' }) }],
      ['unknown token', bearer('not-a-token')],
      ['wrong bootstrap secret', bearer('abcdef.0123456789abcdee')],
      ['proxy with a CN not allowed', { cert: await clientCert(proxyCA, 'intruder'), headers: { 'X-Remote-User': 'admin' } }],
      ['WebSocket token nobody knows', { headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Protocol': `base64url.bearer.authorization.k8s.io.${Buffer.from('nope').toString('base64url')}, v5.channel.k8s.io` } }],
    ];
    const before = await attempts(admin);
    for (const [what, opts] of bad) {
      const res = await call('/api/v1/namespaces/default/configmaps', opts);
      assert.equal(res.status, 401, what);
      assert.deepEqual(res.json(), unauthorized, what);
    }
    const after = await attempts(admin);
    assert.equal(after.error - (before.error ?? 0), bad.length);
    assert.equal(after.failure, before.failure);
  });

  it('names each user in the forbidden message once every request is denied', async () => {
    (fx as { options: ServerOptions }).options = { ...fx.options, authorization: { ...defaultAuthorizationOptions, modes: ['AlwaysDeny'] } };
    await fx.restart();
    const who = async (opts: CallOptions): Promise<string> => {
      const res = await call('/api/v1/namespaces/default/pods', opts);
      assert.equal(res.status, 403, res.text);
      return /User "([^"]*)"/.exec(res.json().message)?.[1] ?? '';
    };
    // system:masters is allowed before any mode is asked (kube's privileged groups), AlwaysDeny or not.
    assert.equal((await call('/api/v1/namespaces/default/pods', { cert: admin })).status, 200);
    assert.equal(await who({ cert: await clientCert(clientCA, 'carol', ['devs']) }), 'carol');
    assert.equal(await who(bearer('static-token-1')), 'kubelet');
    assert.equal(await who({ cert: proxy, headers: { 'X-Remote-User': 'jane' } }), 'jane');
    await until(async () => (await call('/api', bearer('abcdef.0123456789abcdef'))).status === 403);
    assert.equal(await who(bearer('abcdef.0123456789abcdef')), 'system:bootstrap:abcdef');
    assert.equal((await call('/api', bearer('not-a-token'))).status, 401);
  });
});
