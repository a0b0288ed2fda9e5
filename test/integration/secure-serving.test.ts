/**
 * Secure serving of the real API server, over real TLS handshakes: the serving certificate
 * reloaded when its files change, SNI certificates picked by name, --tls-min-version and
 * --tls-cipher-suites enforced; and the HSTS and CORS filters in the chain (a preflight answered
 * before authentication).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect, type ConnectionOptions } from 'node:tls';
import { createCertificateAuthority, issueCertificate, type CertificateAuthority } from '../../internal/server/pki.js';
import { httpsCall, useServer } from '../support/server.js';

let dir: string;
let ca: CertificateAuthority;
let serving: { certFile: string; keyFile: string };

async function writePair(name: string, cn: string, dns: string[]): Promise<{ certFile: string; keyFile: string }> {
  const p = await issueCertificate(ca, { commonName: cn, usage: 'server', dns, ips: ['127.0.0.1'] });
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  await writeFile(keyFile, p.key);
  await writeFile(certFile, p.cert);
  return { certFile, keyFile };
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'capstan-secure-serving-'));
  ca = await createCertificateAuthority('secure-serving-ca');
});
after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Handshakes with the server and reports the served certificate's CN, version and cipher. */
function handshake(port: number, opts: ConnectionOptions = {}): Promise<{ cn: string; version: string; cipher: string }> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, ca: ca.certPem, servername: 'localhost', ...opts }, () => {
      const out = { cn: String(s.getPeerCertificate().subject?.CN), version: String(s.getProtocol()), cipher: s.getCipher().name };
      s.end();
      resolve(out);
    });
    s.on('error', reject);
  });
}

const allowedOrigin = 'https://console.example.com';
const hsts = 'max-age=31536000; includeSubDomains; preload';

describe('secure serving flags on the API server', () => {
  const fx = useServer({}, async () => {
    serving = await writePair('serving', 'serving-1', ['localhost']);
    const sni = await writePair('sni', 'sni', ['sni.test', '*.sni.test']);
    return [
      `--tls-cert-file=${serving.certFile}`,
      `--tls-private-key-file=${serving.keyFile}`,
      '--tls-sni-cert-key',
      `${sni.certFile},${sni.keyFile}:*.sni.test,sni.test`,
      '--tls-min-version=VersionTLS12',
      '--tls-cipher-suites=TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305',
      '--strict-transport-security-directives=max-age=31536000,includeSubDomains,preload',
      '--cors-allowed-origins=^https://console\\.example\\.com(:|$)',
    ];
  });
  const call = (method: string, path: string, headers: Record<string, string> = {}) => httpsCall(fx.port, ca.certPem, method, path, { headers });

  it('serves the rewritten certificate files without a restart', async () => {
    assert.equal((await handshake(fx.port)).cn, 'serving-1');
    const next = await issueCertificate(ca, { commonName: 'serving-2', usage: 'server', dns: ['localhost'] });
    await writeFile(serving.keyFile, next.key);
    await writeFile(serving.certFile, next.cert);
    const deadline = Date.now() + 10_000;
    let cn = '';
    while (Date.now() < deadline && (cn = (await handshake(fx.port)).cn) !== 'serving-2') await new Promise((r) => setTimeout(r, 50));
    assert.equal(cn, 'serving-2');
    assert.equal((await call('GET', '/healthz')).status, 200, 'requests work over the new certificate');
  });

  it('answers SNI names with the --tls-sni-cert-key certificate, others with the default', async () => {
    assert.equal((await handshake(fx.port, { servername: 'sni.test' })).cn, 'sni');
    assert.equal((await handshake(fx.port, { servername: 'api.sni.test' })).cn, 'sni');
    assert.match((await handshake(fx.port, { servername: 'a.b.sni.test', checkServerIdentity: () => undefined })).cn, /^serving-/);
  });

  it('refuses TLS below --tls-min-version', async () => {
    await assert.rejects(handshake(fx.port, { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }), /protocol version|version/i);
    assert.equal((await handshake(fx.port, { maxVersion: 'TLSv1.2' })).version, 'TLSv1.2');
  });

  it('refuses a TLS 1.2 cipher suite outside --tls-cipher-suites; TLS 1.3 stays on as in Go', async () => {
    await assert.rejects(handshake(fx.port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-SHA' }), /handshake failure|no shared cipher/);
    assert.equal((await handshake(fx.port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-CHACHA20-POLY1305' })).cipher, 'ECDHE-ECDSA-CHACHA20-POLY1305');
    assert.equal((await handshake(fx.port)).version, 'TLSv1.3');
  });

  it('sends Strict-Transport-Security on every response, errors included', async () => {
    for (const path of ['/healthz', '/api/v1/namespaces/default/configmaps', '/api/v1/namespaces/default/configmaps/missing', '/nope']) {
      const res = await call('GET', path);
      assert.equal(res.headers['strict-transport-security'], hsts, `${path} (${res.status})`);
    }
  });

  it('CORS: an allowed origin gets the Access-Control headers, another gets none and the normal answer', async () => {
    const ok = await call('GET', '/api/v1/namespaces/default/configmaps', { origin: allowedOrigin });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers['access-control-allow-origin'], allowedOrigin);
    assert.equal(ok.headers['access-control-allow-methods'], 'POST, GET, OPTIONS, PUT, DELETE, PATCH');
    assert.equal(ok.headers['access-control-allow-headers'], 'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since');
    assert.equal(ok.headers['access-control-expose-headers'], 'Date');
    assert.equal(ok.headers['access-control-allow-credentials'], 'true');
    for (const origin of ['https://evil.example.com', 'https://console.example.com.evil.io']) {
      const denied = await call('GET', '/api/v1/namespaces/default/configmaps', { origin });
      assert.equal(denied.status, 200, 'the request itself is served; the browser withholds it');
      assert.equal(denied.headers['access-control-allow-origin'], undefined, origin);
      assert.equal(denied.headers['access-control-allow-credentials'], undefined);
    }
    const withPort = await call('GET', '/healthz', { origin: `${allowedOrigin}:8443` });
    assert.equal(withPort.headers['access-control-allow-origin'], `${allowedOrigin}:8443`);
  });

  it('CORS: an allowed preflight is answered 204 without going further; a denied one goes on', async () => {
    const preflight = await call('OPTIONS', '/api/v1/namespaces/default/configmaps', { origin: allowedOrigin, 'access-control-request-method': 'POST' });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.body.length, 0);
    assert.equal(preflight.headers['access-control-allow-origin'], allowedOrigin);
    assert.equal(preflight.headers['strict-transport-security'], hsts);
    const denied = await call('OPTIONS', '/api/v1/namespaces/default/configmaps', { origin: 'https://evil.example.com', 'access-control-request-method': 'POST' });
    assert.notEqual(denied.status, 204);
    assert.equal(denied.headers['access-control-allow-origin'], undefined);
  });
});

describe('CORS preflight without credentials, --anonymous-auth=false', () => {
  const fx = useServer({}, ['--cors-allowed-origins=//console\\.example\\.com$', '--anonymous-auth=false']);

  it('answers the preflight; the request itself is 401 and still carries the CORS headers', async () => {
    const preflight = await fx.request('OPTIONS', '/api/v1/namespaces/default/pods', { headers: { origin: allowedOrigin, 'access-control-request-method': 'GET' } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], allowedOrigin);
    const get = await fx.request('GET', '/api/v1/namespaces/default/pods', { headers: { origin: allowedOrigin } });
    assert.equal(get.status, 401);
    assert.equal(get.headers['access-control-allow-origin'], allowedOrigin);
    assert.equal(get.headers['strict-transport-security'], undefined, 'no HSTS header without the flag');
    const other = await fx.request('OPTIONS', '/api/v1/namespaces/default/pods', { headers: { origin: 'https://evil.example.com' } });
    assert.equal(other.status, 401, 'a preflight from another origin meets authentication');
  });
});
