import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEchoServer, type EchoAnswer, type EchoServer } from '../../test/support/authn-echo.js';
import { clientCert, createCertificateAuthority, tempDir, tlsCall, writeTemp, type CertificateAuthority, type IssuedCertificate } from '../../test/support/client-certs.js';
import { createLogger } from '../observability/logging.js';
import { CABundle } from './ca-bundle.js';
import { RequestHeaderAuthenticator, unescapeExtraKey } from './request-header.js';

const log = createLogger(0, true);

describe('request-header (front proxy) authenticator', () => {
  let proxyCA: CertificateAuthority;
  let clientCA: CertificateAuthority;
  let proxy: IssuedCertificate;
  let bundle: CABundle;
  let echo: EchoServer;
  const call = async (cert: IssuedCertificate | undefined, headers: Record<string, string | string[]>): Promise<EchoAnswer> =>
    (await tlsCall(echo.port, echo.ca, 'GET', '/', { ...(cert ? { cert } : {}), headers })).json();

  before(async () => {
    proxyCA = await createCertificateAuthority('front-proxy-ca');
    clientCA = await createCertificateAuthority('client-ca');
    proxy = await clientCert(proxyCA, 'front-proxy-client');
    bundle = await CABundle.fromFile('request-header', await writeTemp(await tempDir(), 'front-proxy-ca.crt', proxyCA.certPem), log);
    const authenticator = new RequestHeaderAuthenticator(bundle, {
      clientCAFile: bundle.path,
      allowedNames: ['front-proxy-client', 'other-proxy'],
      usernameHeaders: ['X-Remote-User', 'X-Forwarded-User'],
      uidHeaders: ['X-Remote-Uid'],
      groupHeaders: ['X-Remote-Group', 'X-Other-Group'],
      extraHeaderPrefixes: ['X-Remote-Extra-', 'X-Other-Extra-'],
    });
    echo = await startEchoServer([proxyCA.certPem, clientCA.certPem], (req) => authenticator.authenticate(req));
  });
  after(async () => {
    bundle.stop();
    await echo.close();
  });

  it('takes the user, UID, groups and extras from the headers of a trusted proxy, and removes them', async () => {
    const a = await call(proxy, {
      'X-Remote-User': 'alice',
      'X-Remote-Uid': 'uid-1',
      'X-Remote-Group': ['devs', '', 'ops'],
      'X-Other-Group': 'qa',
      'X-Remote-Extra-Scopes': ['read', 'write'],
      'X-Other-Extra-scopes': 'admin',
      'X-Remote-Extra-Example.com%2Fteam': 'blue',
      'X-Remote-Extra-Bad%zz': 'x',
      'X-Kept': 'yes',
    });
    assert.deepEqual(a.user, {
      name: 'alice',
      uid: 'uid-1',
      groups: ['devs', 'ops', 'qa'],
      extra: { scopes: ['read', 'write', 'admin'], 'example.com/team': ['blue'], 'bad%zz': ['x'] },
    });
    assert.equal(a.headers['x-kept'], 'yes');
    for (const h of Object.keys(a.headers)) assert.doesNotMatch(h, /^x-(remote|other)-/, `${h} was left on the request`);
  });

  it('uses the first username header with a value', async () => {
    assert.equal((await call(proxy, { 'X-Remote-User': '', 'X-Forwarded-User': 'bob' })).user?.name, 'bob');
    assert.equal((await call(proxy, { 'X-Forwarded-User': 'bob', 'X-Remote-User': 'carol' })).user?.name, 'carol');
  });

  it('has no opinion without a username header or without a certificate, and leaves the headers', async () => {
    const noUser = await call(proxy, { 'X-Remote-Group': 'devs' });
    assert.equal(noUser.user, undefined);
    assert.equal(noUser.error, undefined);
    assert.equal(noUser.headers['x-remote-group'], 'devs');
    const noCert = await call(undefined, { 'X-Remote-User': 'alice' });
    assert.equal(noCert.user, undefined);
    assert.equal(noCert.error, undefined);
  });

  it('refuses a proxy certificate whose CN is not allowed', async () => {
    const a = await call(await clientCert(proxyCA, 'someone-else'), { 'X-Remote-User': 'alice' });
    assert.equal(a.user, undefined);
    assert.equal(a.error, 'x509: subject with cn=someone-else is not in the allowed list');
  });

  it('refuses a certificate from another CA, even one the TLS layer asked with', async () => {
    const a = await call(await clientCert(clientCA, 'front-proxy-client'), { 'X-Remote-User': 'alice' });
    assert.equal(a.user, undefined);
    assert.match(a.error ?? '', /unknown authority/);
    assert.equal(a.headers['x-remote-user'], 'alice');
  });

  it("unescapes extra keys as Go's url.PathUnescape does", () => {
    assert.equal(unescapeExtraKey('plain'), 'plain');
    assert.equal(unescapeExtraKey('a%2fb%20c+d'), 'a/b c+d');
    assert.equal(unescapeExtraKey('caf%c3%a9'), 'café');
    assert.equal(unescapeExtraKey('bad%2'), 'bad%2');
    assert.equal(unescapeExtraKey('bad%g1'), 'bad%g1');
  });
});
