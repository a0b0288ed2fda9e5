import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect as h2connect, type ClientHttp2Session, type SecureClientSessionOptions } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { withProbabilisticGoaway } from '../../filters/goaway.js';
import type { RequestState } from '../../filters/request-context.js';
import type { KlogLogger } from '../../observability/logging.js';
import { defaultHttp2Options, type Http2Options } from '../options/http2.js';
import { createCertificateAuthority, issueCertificate, type CertificateAuthority } from '../pki.js';
import { ServingTls } from '../tls/serving-tls.js';
import type { TlsVersionName } from '../tls/tls-version.js';
import { SecureListener, type RequestHandler } from './listener.js';
import { guardHttp2Preface, http1MaxHeaderBytes } from './timeouts.js';

const silent = { error: () => undefined, warn: () => undefined, info: () => undefined, v: () => undefined } as unknown as KlogLogger;

/** Answers who the client is (by its certificate) and how it came. */
const whoAmI: RequestHandler = (req, res) => {
  const socket = req.socket as TLSSocket;
  const peer = socket.getPeerCertificate();
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ version: req.httpVersion, cn: peer.subject?.CN ?? null, authorized: socket.authorized, upgrade: (req as IncomingMessage & { upgrade?: boolean }).upgrade === true }));
};

describe('SecureListener', () => {
  let dir: string;
  let ca: CertificateAuthority;
  let clientCA: CertificateAuthority;
  let files: { certFile: string; keyFile: string; sniCert: string; sniKey: string };
  const open: SecureListener[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-listener-'));
    ca = await createCertificateAuthority('listener-test-ca');
    clientCA = await createCertificateAuthority('listener-client-ca');
    const main = await issueCertificate(ca, { commonName: 'main', usage: 'server', ips: ['127.0.0.1'] });
    const sni = await issueCertificate(ca, { commonName: 'sni', usage: 'server', dns: ['sni.example'] });
    files = { certFile: join(dir, 'main.crt'), keyFile: join(dir, 'main.key'), sniCert: join(dir, 'sni.crt'), sniKey: join(dir, 'sni.key') };
    await Promise.all([writeFile(files.certFile, main.cert), writeFile(files.keyFile, main.key), writeFile(files.sniCert, sni.cert), writeFile(files.sniKey, sni.key)]);
  });
  after(async () => {
    for (const l of open) {
      l.server.close();
      // Kube's 90 s idle timeout would otherwise hold the file open after its last test.
      for (const socket of l.sockets) socket.destroy();
    }
    await rm(dir, { recursive: true, force: true });
  });

  async function listen(opts: { http2?: Partial<Http2Options>; handler?: RequestHandler; cas?: () => readonly string[]; minVersion?: TlsVersionName } = {}) {
    const tls = await ServingTls.load({
      certFile: files.certFile,
      keyFile: files.keyFile,
      sniCertKeys: [{ certFile: files.sniCert, keyFile: files.sniKey, names: ['sni.example'] }],
      minVersion: opts.minVersion ?? 'VersionTLS12',
      cipherSuites: [],
      clientCAs: opts.cas ?? (() => [clientCA.certPem]),
      log: silent,
      watchFiles: false,
    });
    const listener = new SecureListener({
      tls,
      http2: { ...defaultHttp2Options, ...opts.http2 },
      handler: opts.handler ?? whoAmI,
      clientCertificates: () => true,
      log: silent,
    });
    const port = await listener.listen(0, '127.0.0.1');
    open.push(listener);
    return { listener, port, tls };
  }

  function session(port: number, opts: SecureClientSessionOptions = {}): Promise<ClientHttp2Session> {
    return new Promise((resolve, reject) => {
      const s = h2connect(`https://127.0.0.1:${port}`, { ca: ca.certPem, ...opts });
      s.once('remoteSettings', () => resolve(s));
      s.once('error', reject);
    });
  }

  function get(s: ClientHttp2Session, path = '/'): Promise<any> {
    return new Promise((resolve, reject) => {
      const stream = s.request({ ':path': path });
      let body = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => (body += d));
      stream.on('end', () => resolve(JSON.parse(body)));
      stream.on('error', reject);
    });
  }

  function http1(port: number, headers: Record<string, string> = {}): Promise<{ body: any; headers: Record<string, unknown> }> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest({ host: '127.0.0.1', port, path: '/', ca: ca.certPem, agent: false, headers }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ body: JSON.parse(body), headers: res.headers }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('speaks h2 to clients that offer it and HTTP/1.1 to the rest, counting each', async () => {
    const { listener, port } = await listen();
    const s = await session(port);
    assert.equal(s.alpnProtocol, 'h2');
    assert.equal((await get(s)).version, '2.0');
    assert.equal((await get(s)).version, '2.0');
    s.close();
    assert.equal((await http1(port)).body.version, '1.1');
    assert.deepEqual({ ...listener.accepted }, { h2: 1, 'http/1.1': 1 });
  });

  it("advertises --http2-max-streams-per-connection, and Go's 250 for 0", async () => {
    for (const [flag, advertised] of [[1000, 1000], [0, 250], [7, 7]] as const) {
      const { port } = await listen({ http2: { maxStreamsPerConnection: flag } });
      const s = await session(port);
      assert.equal(s.remoteSettings.maxConcurrentStreams, advertised);
      assert.equal(s.remoteSettings.initialWindowSize, 256 * 1024);
      s.close();
    }
  });

  it('serves SNI certificates, asks for client certificates and follows a new client CA over HTTP/2', async () => {
    let cas: readonly string[] = [clientCA.certPem];
    const { port, tls } = await listen({ cas: () => cas });
    const sniSession = await session(port, { servername: 'sni.example' });
    assert.equal((sniSession.socket as TLSSocket).getPeerCertificate().subject.CN, 'sni');
    sniSession.close();
    const client = await issueCertificate(clientCA, { commonName: 'alice', usage: 'client' });
    const withCert = await session(port, { cert: client.cert, key: client.key });
    assert.deepEqual(await get(withCert), { version: '2.0', cn: 'alice', authorized: true, upgrade: false });
    withCert.close();
    const anonymous = await session(port);
    assert.equal((await get(anonymous)).cn, null);
    anonymous.close();
    const otherCA = await createCertificateAuthority('listener-other-ca');
    const bob = await issueCertificate(otherCA, { commonName: 'bob', usage: 'client' });
    const before = await session(port, { cert: bob.cert, key: bob.key });
    assert.deepEqual(await get(before), { version: '2.0', cn: 'bob', authorized: false, upgrade: false });
    before.close();
    cas = [otherCA.certPem];
    await tls.refresh();
    const withNew = await session(port, { cert: bob.cert, key: bob.key });
    assert.deepEqual(await get(withNew), { version: '2.0', cn: 'bob', authorized: true, upgrade: false });
    withNew.close();
  });

  it('keeps --tls-min-version for HTTP/2 clients', async () => {
    const { port } = await listen({ minVersion: 'VersionTLS13' });
    await assert.rejects(session(port, { maxVersion: 'TLSv1.2' }));
    const s = await session(port);
    assert.equal((s.socket as TLSSocket).getProtocol(), 'TLSv1.3');
    s.close();
  });

  it("fires 'upgrade' for HTTP/1.1 upgrade requests and hands them to the HTTP/1.1 handler", async () => {
    const { port } = await listen();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = tlsConnect({ host: '127.0.0.1', port, ca: ca.certPem, ALPNProtocols: ['http/1.1'] }, () => {
        socket.write('GET /exec HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => (text += d));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 200 /);
    assert.match(answer, /"upgrade":true/);
  });

  it('on close, sends GOAWAY and lets the streams in flight finish', async () => {
    let release = (): void => undefined;
    const { listener, port } = await listen({
      handler: (_req, res) => {
        res.write('started ');
        release = () => res.end('finished');
      },
    });
    const s = await session(port);
    const goaway = new Promise((resolve) => s.once('goaway', resolve));
    const stream = s.request({ ':path': '/' });
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (d: string) => (body += d));
    await new Promise((resolve) => stream.once('response', resolve));
    const closed = new Promise<void>((resolve) => listener.close(resolve));
    await goaway;
    release();
    await new Promise((resolve) => stream.once('end', resolve));
    assert.equal(body, 'started finished');
    await closed;
  });

  it('the goaway filter sends GOAWAY after HTTP/2 responses only', async () => {
    const filter = withProbabilisticGoaway(0.02, () => 0.01);
    assert.ok(filter);
    assert.equal(withProbabilisticGoaway(0), undefined);
    const never = withProbabilisticGoaway(0.02, () => 0.5) as NonNullable<typeof filter>;
    const handler =
      (f: NonNullable<typeof filter>): RequestHandler =>
      (req: IncomingMessage, res: ServerResponse) => {
        void f(req, res, {} as RequestState);
        whoAmI(req, res);
      };
    const { port } = await listen({ handler: handler(filter) });
    const s = await session(port);
    const goaway = new Promise((resolve) => s.once('goaway', resolve));
    assert.equal((await get(s)).version, '2.0');
    await goaway;
    await new Promise((resolve) => s.once('close', resolve));
    const h1 = await http1(port, { Connection: 'keep-alive' });
    assert.equal(h1.headers.connection, 'keep-alive');
    const quiet = await listen({ handler: handler(never) });
    const q = await session(quiet.port);
    let away = false;
    q.once('goaway', () => (away = true));
    await get(q);
    await get(q);
    assert.equal(away, false);
    q.close();
  });

  it("cuts idle and slow connections at kube's ReadHeaderTimeout, IdleTimeout and MaxHeaderBytes", async () => {
    const { listener, port } = await listen();
    const fields = listener.server as unknown as { headersTimeout: number; keepAliveTimeout: number; maxHeaderSize: number; connectionsCheckingInterval: number };
    // Node's defaults: a 60 s header deadline swept every 30 s and 16 KiB of header; keep-alive was 65 s.
    assert.deepEqual(
      { headersTimeout: fields.headersTimeout, keepAliveTimeout: fields.keepAliveTimeout, maxHeaderSize: fields.maxHeaderSize, sweep: fields.connectionsCheckingInterval },
      { headersTimeout: 32_000, keepAliveTimeout: 90_000, maxHeaderSize: (1 << 20) + 4096, sweep: 1_000 },
    );
    // A header past node's 16 KiB default but within kube's 1 MiB is served (HTTP/2 stays at
    // nghttp2's 64 KiB, which node does not let a server raise).
    assert.equal((await http1(port, { 'x-big': 'x'.repeat(64 * 1024) })).body.version, '1.1');
  });

  it('closes an HTTP/2 connection whose client never sends its preface', async () => {
    const { listener, port } = await listen();
    listener.server.prependListener('session', (session) => guardHttp2Preface(session, 300));
    const socket = tlsConnect({ host: '127.0.0.1', port, ca: ca.certPem, ALPNProtocols: ['h2'], checkServerIdentity: () => undefined });
    const opened = Date.now();
    await new Promise<void>((resolve, reject) => {
      socket.once('secureConnect', () => resolve());
      socket.once('error', reject);
    });
    assert.equal(socket.alpnProtocol, 'h2');
    // Read what the server sends (its SETTINGS, then its end), as a client would.
    socket.resume();
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const after = Date.now() - opened;
    assert.ok(after >= 250 && after < 5_000, `closed after ${after} ms`);
  });

  it("serves HTTP/1.1 request lines and headers up to kube's 1 MiB, and answers 431 past it", async () => {
    const { port } = await listen();
    const send = (head: string): Promise<string> =>
      new Promise((resolve, reject) => {
        // Written, not ended: a client's close_notify racing the answer would have node's TLS
        // server close without it (a half-closed connection gets no answer; README, differences).
        const socket = tlsConnect({ host: '127.0.0.1', port, ca: ca.certPem, ALPNProtocols: ['http/1.1'] }, () => socket.write(head));
        let got = '';
        socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
        socket.on('close', () => resolve(got));
        socket.on('error', reject);
      });
    // A 20 KiB label selector, past node's 16 KiB default: kube serves it.
    const longQuery = await send(`GET /api/v1/pods?labelSelector=app+in+(${'a,'.repeat(10_000)}b) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.match(longQuery, /^HTTP\/1\.1 200 /);
    const huge = await send(`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(http1MaxHeaderBytes + 1)}\r\nConnection: close\r\n\r\n`);
    assert.match(huge, /^HTTP\/1\.1 431 /);
  });
});
