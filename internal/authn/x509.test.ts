import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { startEchoServer, type EchoAnswer, type EchoServer } from '../../test/support/authn-echo.js';
import {
  clientCert,
  createCertificateAuthority,
  expiredClientCert,
  intermediateAuthority,
  issueCertificate,
  keepAliveAgent,
  tempDir,
  tlsCall,
  writeTemp,
  type CertificateAuthority,
  type IssuedCertificate,
} from '../../test/support/client-certs.js';
import { createLogger } from '../observability/logging.js';
import { CABundle } from './ca-bundle.js';
import { X509Authenticator } from './x509.js';

const log = createLogger(0, true);

/** The credential id kube 1.32+ gives a certificate user, from the SHA-256 fingerprint openssl prints. */
function credentialExtra(pem: string): Record<string, string[]> {
  const fingerprint = new X509Certificate(pem).fingerprint256.replaceAll(':', '').toLowerCase();
  return { 'authentication.kubernetes.io/credential-id': [`X509SHA256=${fingerprint}`] };
}

describe('x509 client certificate authenticator', () => {
  let ca: CertificateAuthority;
  let other: CertificateAuthority;
  let caFile: string;
  let bundle: CABundle;
  let echo: EchoServer;
  const call = async (cert?: IssuedCertificate, agent?: ReturnType<typeof keepAliveAgent>): Promise<EchoAnswer> =>
    (await tlsCall(echo.port, echo.ca, 'GET', '/', { ...(cert ? { cert } : {}), ...(agent ? { agent } : {}) })).json();

  before(async () => {
    ca = await createCertificateAuthority('client-ca');
    other = await createCertificateAuthority('client-ca');
    const dir = await tempDir();
    caFile = await writeTemp(dir, 'client-ca.crt', ca.certPem);
    bundle = await CABundle.fromFile('client-ca-bundle', caFile, log);
    bundle.start();
    const authenticator = new X509Authenticator(bundle);
    // The TLS layer asks with both CAs, as the server does with both bundles: only the
    // authenticator's own bundle may decide.
    echo = await startEchoServer([ca.certPem, other.certPem], (req) => authenticator.authenticate(req));
  });
  after(async () => {
    bundle.stop();
    await echo.close();
  });

  it('names the user by CN, the groups by the O entries and the credential by its fingerprint', async () => {
    const cert = await clientCert(ca, 'alice', ['system:masters', 'devs']);
    const a = await call(cert);
    assert.deepEqual(a.user, { name: 'alice', groups: ['system:masters', 'devs'], extra: credentialExtra(cert.cert) });
    // Each certificate is its own credential, even for the same subject.
    const again = await clientCert(ca, 'alice', ['system:masters', 'devs']);
    assert.notDeepEqual((await call(again)).user?.extra, a.user?.extra);
  });

  it('has no opinion without a certificate or without a CN', async () => {
    assert.deepEqual(await call(), { headers: (await call()).headers });
    const noCN = await issueCertificate(ca, { commonName: '', organizations: ['g'], usage: 'client' });
    const a = await call(noCN);
    assert.equal(a.user, undefined);
    assert.equal(a.error, undefined);
  });

  it('refuses a certificate from another CA the TLS layer also asked with', async () => {
    const a = await call(await clientCert(other, 'mallory', ['system:masters']));
    assert.equal(a.user, undefined);
    assert.match(a.error ?? '', /x509: certificate signed by unknown authority/);
  });

  it('refuses expired and not yet valid certificates', async () => {
    const expired = await call(await expiredClientCert(ca, 'old'));
    assert.match(expired.error ?? '', /certificate has expired or is not yet valid: current time .* is after/);
    const future = await call(await clientCert(ca, 'future', [], { notBefore: new Date(Date.now() + 3600_000), notAfter: new Date(Date.now() + 7200_000) }));
    assert.match(future.error ?? '', /is before/);
  });

  it('refuses a certificate not allowed for client authentication', async () => {
    const serverOnly = await issueCertificate(ca, { commonName: 'web', usage: 'server' });
    assert.match((await call(serverOnly)).error ?? '', /incompatible key usage/);
  });

  it('accepts a chain through an intermediate the client sends', async () => {
    const inter = await intermediateAuthority(ca, 'intermediate');
    const leaf = await clientCert(inter, 'bob', ['team']);
    const a = await call({ cert: leaf.cert + inter.certPem, key: leaf.key });
    // The credential is the leaf, not the chain.
    assert.deepEqual(a.user, { name: 'bob', groups: ['team'], extra: credentialExtra(leaf.cert) });
    // Without the intermediate the chain does not reach the CA.
    assert.match((await call(leaf)).error ?? '', /unknown authority/);
  });

  it('verifies once per connection, however many requests it carries', async () => {
    const cert = await clientCert(ca, 'carol');
    const agent = keepAliveAgent(cert);
    const verify = X509Certificate.prototype.verify;
    let verifications = 0;
    X509Certificate.prototype.verify = function (this: X509Certificate, key) {
      verifications++;
      return verify.call(this, key);
    };
    try {
      for (let i = 0; i < 5; i++) assert.equal((await call(undefined, agent)).user?.name, 'carol');
    } finally {
      X509Certificate.prototype.verify = verify;
      agent.destroy();
    }
    assert.equal(verifications, 1);
  });

  it('verifies a certificate once for all its connections, while the CA file is unchanged', async () => {
    const cert = await clientCert(ca, 'frank');
    const verify = X509Certificate.prototype.verify;
    let verifications = 0;
    X509Certificate.prototype.verify = function (this: X509Certificate, key) {
      verifications++;
      return verify.call(this, key);
    };
    try {
      // call() without an agent opens a new connection each time.
      for (let i = 0; i < 4; i++) assert.equal((await call(cert)).user?.name, 'frank');
    } finally {
      X509Certificate.prototype.verify = verify;
    }
    assert.equal(verifications, 1);
  });

  it('follows the CA file: a replaced CA is used at once and decisions made with the old one are dropped', async () => {
    const cert = await clientCert(ca, 'dave');
    const agent = keepAliveAgent(cert);
    try {
      assert.equal((await call(undefined, agent)).user?.name, 'dave');
      const changed = new Promise<void>((resolve) => bundle.onChange(resolve));
      await writeFile(caFile, other.certPem);
      await changed; // the file watch, not a manual reload
      const sameConnection = await call(undefined, agent);
      assert.match(sameConnection.error ?? '', /unknown authority/);
      assert.equal((await call(await clientCert(other, 'erin'))).user?.name, 'erin');
      // An invalid file keeps the loaded bundle.
      await writeFile(caFile, 'not a certificate');
      await bundle.reload();
      assert.equal((await call(await clientCert(other, 'erin'))).user?.name, 'erin');
    } finally {
      agent.destroy();
      await writeFile(caFile, ca.certPem);
      await bundle.reload();
    }
  });

  it('refuses to start on a missing or empty CA file', async () => {
    await assert.rejects(CABundle.fromFile('client-ca-bundle', '/nonexistent/ca.crt', log), /unable to load client-ca-bundle CA file "\/nonexistent\/ca.crt": ENOENT/);
    const dir = await tempDir();
    await assert.rejects(CABundle.fromFile('client-ca-bundle', await writeTemp(dir, 'empty.crt', ''), log), /does not contain any valid RSA or ECDSA certificates/);
  });
});
