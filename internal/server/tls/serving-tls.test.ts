import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import type { Logger } from '../../observability/logging.js';
import { createCertificateAuthority, issueCertificate, type CertificateAuthority } from '../pki.js';
import { ServingTls, type ServingTlsConfig } from './serving-tls.js';

/** A logger that remembers errors (a refused pair must be logged). */
function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, error: (m) => errors.push(m), warn: () => undefined, info: () => undefined, v: () => undefined };
}

interface Running {
  readonly tls: ServingTls;
  readonly server: Server;
  readonly port: number;
  readonly log: ReturnType<typeof recordingLogger>;
}

async function serve(cfg: Omit<ServingTlsConfig, 'log' | 'clientCAs'> & { clientCAs?: () => readonly string[] }): Promise<Running> {
  const log = recordingLogger();
  const tls = await ServingTls.load({ clientCAs: () => [], ...cfg, log });
  const server = createServer(tls.serverOptions(), (req, res) => {
    const socket = req.socket as TLSSocket;
    const peer = socket.getPeerCertificate();
    res.end(JSON.stringify({ cn: peer.subject?.CN ?? null, authorized: socket.authorized }));
  });
  tls.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { tls, server, log, port: (server.address() as AddressInfo).port };
}

async function close(r: Running): Promise<void> {
  r.tls.stop();
  r.server.closeAllConnections();
  await new Promise<void>((resolve) => r.server.close(() => resolve()));
}

/** Handshakes and reports the served certificate's CN, the version and the cipher; rejects when the handshake fails. */
function handshake(port: number, opts: ConnectionOptions = {}): Promise<{ cn: string; version: string; cipher: string }> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...opts }, () => {
      const out = { cn: String(s.getPeerCertificate().subject?.CN), version: String(s.getProtocol()), cipher: s.getCipher().name };
      s.end();
      resolve(out);
    });
    s.on('error', reject);
  });
}

/** One HTTPS GET answering what the server saw of the client certificate. */
function whoAmI(port: number, opts: { servername?: string; cert?: string; key?: string }): Promise<{ cn: string | null; authorized: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', rejectUnauthorized: false, agent: false, ...opts }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(JSON.parse(body)));
    });
    req.on('error', reject);
    req.end();
  });
}

async function eventually(what: string, check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('ServingTls', () => {
  let dir: string;
  let ca: CertificateAuthority;
  const pair = async (cn: string, dns: string[] = []) => issueCertificate(ca, { commonName: cn, usage: 'server', dns });
  const write = async (name: string, cn: string, dns: string[] = []): Promise<{ certFile: string; keyFile: string }> => {
    const p = await pair(cn, dns);
    const certFile = join(dir, `${name}.crt`);
    const keyFile = join(dir, `${name}.key`);
    await writeFile(keyFile, p.key);
    await writeFile(certFile, p.cert);
    return { certFile, keyFile };
  };
  const base = { sniCertKeys: [], minVersion: 'VersionTLS12', cipherSuites: [] } as const;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-tls-'));
    ca = await createCertificateAuthority('serving-tls-test-ca');
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('serves a rewritten certificate without a restart, and keeps the old one when the new pair is bad', async () => {
    const files = await write('reload', 'first');
    const r = await serve({ ...base, ...files });
    try {
      assert.equal((await handshake(r.port)).cn, 'first');
      const next = await pair('second');
      await writeFile(files.keyFile, next.key);
      await writeFile(files.certFile, next.cert);
      await eventually('the second certificate', async () => (await handshake(r.port)).cn === 'second');
      // A key that is not the certificate's: logged, and the second pair stays.
      await writeFile(files.keyFile, (await pair('third')).key);
      await r.tls.refresh();
      assert.equal((await handshake(r.port)).cn, 'second');
      assert.match(r.log.errors.join('\n'), /not loading an invalid new certificate\/key pair "serving-cert::.*reload\.crt::.*reload\.key".*does not match/);
      await writeFile(files.certFile, 'garbage');
      await r.tls.refresh();
      assert.equal((await handshake(r.port)).cn, 'second');
    } finally {
      await close(r);
    }
  });

  it('re-checks the files periodically when no file event arrives', async () => {
    const files = await write('periodic', 'before');
    const r = await serve({ ...base, ...files, watchFiles: false, refreshIntervalMs: 100 });
    try {
      const next = await pair('after');
      await writeFile(files.keyFile, next.key);
      await writeFile(files.certFile, next.cert);
      await eventually('the periodic re-check', async () => (await handshake(r.port)).cn === 'after');
    } finally {
      await close(r);
    }
  });

  it('picks SNI certificates by name (exact, then one wildcard label), by local IP without SNI, else the default', async () => {
    const def = await write('default', 'default');
    const foo = await write('foo', 'foo', ['foo.test']);
    const ip = await write('ip', 'by-ip');
    const r = await serve({
      ...base,
      ...def,
      sniCertKeys: [
        { ...foo, names: ['*.foo.test', 'foo.test'] },
        { ...ip, names: ['127.0.0.1'] },
      ],
    });
    try {
      assert.equal((await handshake(r.port, { servername: 'foo.test' })).cn, 'foo');
      assert.equal((await handshake(r.port, { servername: 'a.foo.test' })).cn, 'foo');
      assert.equal((await handshake(r.port, { servername: 'a.b.foo.test' })).cn, 'default');
      assert.equal((await handshake(r.port, { servername: 'other.test' })).cn, 'default');
      assert.equal((await handshake(r.port)).cn, 'by-ip', 'no SNI: the certificate for the address connected to');
      // A reloaded SNI pair is served too.
      const next = await pair('foo-2');
      await writeFile(foo.keyFile, next.key);
      await writeFile(foo.certFile, next.cert);
      await eventually('the reloaded SNI certificate', async () => (await handshake(r.port, { servername: 'foo.test' })).cn === 'foo-2');
      assert.equal((await handshake(r.port, { servername: 'other.test' })).cn, 'default');
    } finally {
      await close(r);
    }
  });

  it('enforces --tls-cipher-suites for TLS 1.2 and keeps TLS 1.3 on, as Go does', async () => {
    const files = await write('ciphers', 'ciphers');
    const r = await serve({ ...base, ...files, cipherSuites: ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384'] });
    try {
      const ok = await handshake(r.port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES256-GCM-SHA384' });
      assert.equal(ok.cipher, 'ECDHE-ECDSA-AES256-GCM-SHA384');
      await assert.rejects(handshake(r.port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-CHACHA20-POLY1305' }), /handshake failure|no shared cipher/);
      assert.equal((await handshake(r.port)).version, 'TLSv1.3');
    } finally {
      await close(r);
    }
  });

  it("uses Go's default suites without the flag: a CBC-SHA256 suite Node would allow is refused", async () => {
    const files = await write('default-ciphers', 'default-ciphers');
    const r = await serve({ ...base, ...files });
    try {
      await assert.rejects(handshake(r.port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-SHA256' }), /handshake failure|no shared cipher/);
      assert.equal((await handshake(r.port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-SHA' })).cipher, 'ECDHE-ECDSA-AES128-SHA');
    } finally {
      await close(r);
    }
  });

  it('refuses versions below --tls-min-version; VersionTLS10 really allows TLS 1.0', async () => {
    const files = await write('versions', 'versions');
    const tls13 = await serve({ ...base, ...files, minVersion: 'VersionTLS13' });
    const tls12 = await serve({ ...base, ...files });
    const tls10 = await serve({ ...base, ...files, minVersion: 'VersionTLS10' });
    try {
      await assert.rejects(handshake(tls13.port, { maxVersion: 'TLSv1.2' }), /protocol version|version/i);
      assert.equal((await handshake(tls13.port)).version, 'TLSv1.3');
      await assert.rejects(handshake(tls12.port, { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }), /protocol version|version/i);
      assert.equal((await handshake(tls12.port, { maxVersion: 'TLSv1.2' })).version, 'TLSv1.2');
      assert.equal((await handshake(tls10.port, { minVersion: 'TLSv1', maxVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' })).version, 'TLSv1');
    } finally {
      await Promise.all([close(tls13), close(tls12), close(tls10)]);
    }
  });

  it('asks for client certificates with the current client CAs, in the default and SNI contexts alike', async () => {
    const files = await write('client-ca', 'client-ca');
    const sni = await write('client-ca-sni', 'sni', ['sni.test']);
    const clientCA = await createCertificateAuthority('client-ca');
    const client = await issueCertificate(clientCA, { commonName: 'alice', usage: 'client' });
    let cas: string[] = [];
    const r = await serve({ ...base, ...files, sniCertKeys: [{ ...sni, names: [] }], clientCAs: () => cas });
    try {
      assert.deepEqual(await whoAmI(r.port, client), { cn: null, authorized: false }, 'no CA: no certificate asked for');
      cas = [clientCA.certPem];
      await r.tls.refresh();
      assert.deepEqual(await whoAmI(r.port, client), { cn: 'alice', authorized: true });
      assert.deepEqual(await whoAmI(r.port, { ...client, servername: 'sni.test' }), { cn: 'alice', authorized: true });
      // A certificate from another CA is still taken to the authenticators (never a failed handshake).
      const stranger = await issueCertificate(await createCertificateAuthority('other'), { commonName: 'mallory', usage: 'client' });
      assert.deepEqual(await whoAmI(r.port, stranger), { cn: 'mallory', authorized: false });
    } finally {
      await close(r);
    }
  });

  it('refuses to start on a missing or mismatched pair', async () => {
    const a = await write('start-a', 'a');
    const b = await write('start-b', 'b');
    const log = recordingLogger();
    await assert.rejects(ServingTls.load({ ...base, certFile: join(dir, 'none.crt'), keyFile: a.keyFile, clientCAs: () => [], log }), /failed to load serving certificate and key: .*ENOENT/);
    await assert.rejects(
      ServingTls.load({ ...base, ...a, sniCertKeys: [{ certFile: a.certFile, keyFile: b.keyFile, names: [] }], clientCAs: () => [], log }),
      /failed to load SNI cert and key: tls: private key .* does not match/,
    );
  });
});
