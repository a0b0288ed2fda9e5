import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { startEchoServer, type EchoAnswer, type EchoServer } from '../../test/support/authn-echo.js';
import { clientCert, createCertificateAuthority, tempDir, tlsCall, writeTemp, type CertificateAuthority, type IssuedCertificate } from '../../test/support/client-certs.js';
import { groupOptionsFromFlags } from '../../test/support/server.js';
import { createLogger } from '../observability/logging.js';
import { buildAuthentication, type BuiltAuthentication } from './build.js';

const log = createLogger(0, true);
const deps = { storageOf: () => undefined, log };

async function build(flags: string[]): Promise<BuiltAuthentication> {
  return buildAuthentication(groupOptionsFromFlags(flags).authentication, deps);
}

describe('the assembled authenticator (flags to users, over TLS)', () => {
  let clientCA: CertificateAuthority;
  let proxyCA: CertificateAuthority;
  let clientCAFile: string;
  let built: BuiltAuthentication;
  let echo: EchoServer;
  const call = async (opts: { cert?: IssuedCertificate; headers?: Record<string, string> } = {}): Promise<EchoAnswer> =>
    (await tlsCall(echo.port, echo.ca, 'GET', '/', opts)).json();

  before(async () => {
    clientCA = await createCertificateAuthority('client-ca');
    proxyCA = await createCertificateAuthority('front-proxy-ca');
    const dir = await tempDir();
    clientCAFile = await writeTemp(dir, 'ca.crt', clientCA.certPem);
    built = await build([
      `--client-ca-file=${clientCAFile}`,
      `--requestheader-client-ca-file=${await writeTemp(dir, 'front-proxy-ca.crt', proxyCA.certPem)}`,
      '--requestheader-allowed-names=front-proxy-client',
      '--requestheader-username-headers=X-Remote-User',
      '--requestheader-group-headers=X-Remote-Group',
      `--token-auth-file=${await writeTemp(dir, 'tokens.csv', 'secret-token,kubelet,uid-7,"nodes,ops"\n')}`,
    ]);
    echo = await startEchoServer(built.clientCAs(), (req) => built.authenticator.authenticate(req));
  });
  after(async () => {
    built.stop();
    await echo.close();
  });

  it('asks with both CA bundles', () => {
    assert.deepEqual(built.clientCAs(), [proxyCA.certPem, clientCA.certPem]);
  });

  it('names certificate, proxy and token users, each in system:authenticated', async () => {
    const admin = await clientCert(clientCA, 'admin', ['system:masters']);
    const fingerprint = new X509Certificate(admin.cert).fingerprint256.replaceAll(':', '').toLowerCase();
    assert.deepEqual((await call({ cert: admin })).user, {
      name: 'admin',
      groups: ['system:masters', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': [`X509SHA256=${fingerprint}`] },
    });
    const viaProxy = await call({ cert: await clientCert(proxyCA, 'front-proxy-client'), headers: { 'X-Remote-User': 'jane', 'X-Remote-Group': 'devs' } });
    assert.deepEqual(viaProxy.user, { name: 'jane', groups: ['devs', 'system:authenticated'] });
    const token = await call({ headers: { Authorization: 'Bearer secret-token' } });
    assert.deepEqual(token.user, { name: 'kubelet', uid: 'uid-7', groups: ['nodes', 'ops', 'system:authenticated'] });
    assert.equal(token.headers.authorization, undefined);
  });

  it("tries the front proxy first, then the certificate, then tokens (kube's order)", async () => {
    // A client certificate with proxy headers: not a proxy (wrong CA), so the certificate's user.
    const a = await call({ cert: await clientCert(clientCA, 'alice'), headers: { 'X-Remote-User': 'root', Authorization: 'Bearer secret-token' } });
    assert.equal(a.user?.name, 'alice');
    // A proxy that names nobody, with a token: the token's user.
    const b = await call({ cert: await clientCert(proxyCA, 'front-proxy-client'), headers: { Authorization: 'Bearer secret-token' } });
    assert.equal(b.user?.name, 'kubelet');
  });

  it('believes a proxy before reading its certificate as a user when one CA signs both', async () => {
    const dir = await tempDir();
    const shared = await writeTemp(dir, 'shared.crt', clientCA.certPem);
    const b = await build([`--client-ca-file=${shared}`, `--requestheader-client-ca-file=${shared}`, '--requestheader-username-headers=X-Remote-User']);
    const e = await startEchoServer(b.clientCAs(), (req) => b.authenticator.authenticate(req));
    try {
      const cert = await clientCert(clientCA, 'front-proxy-client');
      const r: EchoAnswer = (await tlsCall(e.port, e.ca, 'GET', '/', { cert, headers: { 'X-Remote-User': 'jane' } })).json();
      assert.equal(r.user?.name, 'jane');
    } finally {
      b.stop();
      await e.close();
    }
  });

  it('is anonymous without credentials, and never with an invalid one', async () => {
    assert.deepEqual((await call()).user, { name: 'system:anonymous', groups: ['system:unauthenticated'] });
    assert.equal((await call({ headers: { Authorization: 'Bearer wrong' } })).error, 'invalid bearer token');
    assert.match((await call({ cert: await clientCert(await createCertificateAuthority('x'), 'eve') })).error ?? '', /unknown authority/);
  });

  it('tells the TLS server when a CA file changes', async () => {
    const other = await createCertificateAuthority('client-ca-2');
    const changed = new Promise<void>((resolve) => built.onClientCAsChange?.(resolve));
    await writeFile(clientCAFile, other.certPem);
    await changed;
    assert.deepEqual(built.clientCAs(), [proxyCA.certPem, other.certPem]);
  });
});

describe('authentication start-up errors', () => {
  it('refuses an invalid token file, a missing CA file, and bootstrap tokens without Secrets', async () => {
    const dir = await tempDir();
    await assert.rejects(build([`--token-auth-file=${await writeTemp(dir, 't.csv', 'a,b\n')}`]), {
      message: `invalid authentication config: token file '${dir}/t.csv' must have at least 3 columns (token, user name, user uid), found 2`,
    });
    await assert.rejects(build(['--client-ca-file=/nonexistent.crt']), /invalid authentication config: unable to load client-ca-bundle CA file "\/nonexistent.crt"/);
    await assert.rejects(build(['--enable-bootstrap-token-auth']), /--enable-bootstrap-token-auth needs the secrets resource/);
  });

  it('has no token and no certificate methods by default', async () => {
    const b = await build([]);
    assert.deepEqual(b.clientCAs(), []);
    assert.equal(await b.tokenAuthenticator.authenticateToken('anything', []), undefined);
  });
});
