/**
 * HTTP/2 on the secure port against the real server and etcd: ALPN picks h2 for clients that offer
 * it (kubectl included) and HTTP/1.1 for the rest; 1,000 watches share one connection and each
 * receives its events; client certificates authenticate over HTTP/2; lists (chunked, gzipped,
 * Protobuf), errors and aborted streams behave as over HTTP/1.1; upgrade requests still reach the
 * chain over HTTP/1.1.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import { gunzipSync } from 'node:zlib';
import { describe, it } from 'node:test';
import { clientCert, createCertificateAuthority, tempDir, writeTemp, type CertificateAuthority, type IssuedCertificate } from '../support/client-certs.js';
import { kubectl } from '../support/kubectl.js';
import { useServer } from '../support/server.js';

let clientCA: CertificateAuthority;
const fx = useServer({}, async () => {
  clientCA = await createCertificateAuthority('client-ca');
  return [`--client-ca-file=${await writeTemp(await tempDir(), 'ca.crt', clientCA.certPem)}`];
});

interface H2Response {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function session(cert?: IssuedCertificate): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const s = connect(`https://127.0.0.1:${fx.port}`, { ca: fx.ca, ...(cert ? { cert: cert.cert, key: cert.key } : {}) });
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

function h2(s: ClientHttp2Session, method: string, path: string, opts: { headers?: Record<string, string>; body?: unknown } = {}): Promise<H2Response> {
  return new Promise((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
    const stream = s.request({ ':method': method, ':path': path, ...(payload ? { 'content-type': 'application/json' } : {}), ...opts.headers });
    const chunks: Buffer[] = [];
    let headers: IncomingHttpHeaders = {};
    stream.on('response', (h) => (headers = h));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve({ status: Number(headers[':status']), headers, body: Buffer.concat(chunks) }));
    stream.on('error', reject);
    stream.end(payload);
  });
}

const json = (r: H2Response): any => JSON.parse(r.body.toString());

describe('HTTP/2 on the secure port', () => {
  it('negotiates h2 by ALPN, and HTTP/1.1 for clients that do not offer it', async () => {
    const before = { ...fx.server.accepted };
    const s = await session();
    assert.equal(s.alpnProtocol, 'h2');
    const r = await h2(s, 'GET', '/version');
    assert.equal(r.status, 200);
    assert.equal(json(r).major, '1');
    s.close();
    // node:https offers no ALPN; an explicit http/1.1 offer is HTTP/1.1 too.
    const plain = await fx.request('GET', '/version');
    assert.equal(plain.status, 200);
    const alpn = await new Promise<string | false>((resolve, reject) => {
      const options = { host: '127.0.0.1', port: fx.port, path: '/version', ca: fx.ca, ALPNProtocols: ['http/1.1'], agent: false };
      const req = httpsRequest(options as unknown as Parameters<typeof httpsRequest>[0], (res) => {
        const protocol = (res.socket as unknown as { alpnProtocol: string | false }).alpnProtocol;
        res.resume();
        res.on('end', () => resolve(protocol));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(alpn, 'http/1.1');
    assert.equal(fx.server.accepted.h2 - before.h2, 1);
    assert.equal(fx.server.accepted['http/1.1'] - before['http/1.1'], 2);
  });

  it('serves curl --http1.1 and curl --http2', async () => {
    const curl = (flag: string) =>
      new Promise<string>((resolve, reject) => {
        const caFile = `${fx.dir}/ca-curl.crt`;
        void writeTemp(fx.dir, 'ca-curl.crt', fx.ca).then(() =>
          execFile('curl', ['-sS', flag, '--cacert', caFile, '-o', '/dev/null', '-w', '%{http_version} %{http_code}', `https://127.0.0.1:${fx.port}/healthz`], (err, out) => (err ? reject(err) : resolve(out))),
        );
      });
    assert.equal(await curl('--http1.1'), '1.1 200');
    assert.equal(await curl('--http2'), '2 200');
  });

  it('kubectl speaks HTTP/2 to it', async () => {
    const before = { ...fx.server.accepted };
    const out = await kubectl(fx.kubeconfigPath, ['get', 'namespaces', '-o', 'name']);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /namespace\/kube-system/);
    assert.ok(fx.server.accepted.h2 - before.h2 >= 1, 'kubectl opened an h2 connection');
    assert.equal(fx.server.accepted['http/1.1'] - before['http/1.1'], 0, 'kubectl made no HTTP/1.1 connection');
  });

  it('1,000 watches share one connection and each receives its events', async () => {
    const ns = 'h2-watches';
    // A system:masters identity: priority and fairness exempts it, so a burst of 1,000 watches is
    // not queued or turned away (a client-go informer would retry its 429s; this test is about
    // the connection they share).
    const s = await session(await clientCert(clientCA, 'h2-watcher', ['system:masters']));
    assert.equal((await h2(s, 'POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status, 201);
    const list = json(await h2(s, 'GET', `/api/v1/namespaces/${ns}/configmaps`));
    const before = fx.server.accepted.h2;
    const watchers = 1000;
    const seen = new Array<string>(watchers).fill('');
    let opened = 0;
    const streams = Array.from({ length: watchers }, (_, i) => {
      const stream = s.request({ ':path': `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${list.metadata.resourceVersion}` });
      stream.on('response', (h) => {
        assert.equal(h[':status'], 200);
        assert.equal(h['transfer-encoding'], undefined);
        opened++;
      });
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => (seen[i] += d));
      stream.on('error', () => undefined);
      return stream;
    });
    await until(() => opened === watchers, 20_000);
    for (const name of ['a', 'b']) {
      const other = await session();
      assert.equal((await h2(other, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name } } })).status, 201);
      other.close();
    }
    await until(() => seen.every((t) => t.includes('"name":"b"')), 20_000);
    for (const text of seen) {
      // The root CA publisher's kube-root-ca.crt may come before or between the test's.
      const events = text.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.object.metadata.name !== 'kube-root-ca.crt');
      assert.deepEqual(events.map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED a', 'ADDED b']);
    }
    // This session plus the two writers' sessions: the watches opened no connection of their own.
    assert.equal(fx.server.accepted.h2 - before, 2);
    for (const st of streams) st.close(constants.NGHTTP2_CANCEL);
    s.close();
  });

  it('an HTTP/2 stream the client cancels ends the request on the server', async () => {
    const gauge = async (): Promise<number> => {
      const text = (await fx.request('GET', '/metrics')).text;
      const m = /^apiserver_longrunning_requests\{component="apiserver",group="",resource="configmaps",scope="namespace",subresource="",verb="WATCH",version="v1"\} (\d+)$/m.exec(text);
      return m ? Number(m[1]) : 0;
    };
    const s = await session();
    const base = await gauge();
    const stream = s.request({ ':path': '/api/v1/namespaces/default/configmaps?watch=1' });
    await new Promise((resolve) => stream.once('response', resolve));
    await until(async () => (await gauge()) === base + 1);
    stream.close(constants.NGHTTP2_CANCEL);
    await until(async () => (await gauge()) === base);
    s.close();
  });

  it('takes a request with a thousand header fields, or 100 KB of them, as Go\'s HTTP/2 server does', async () => {
    const s = await new Promise<ClientHttp2Session>((resolve, reject) => {
      const c = connect(`https://127.0.0.1:${fx.port}`, { ca: fx.ca, maxSendHeaderBlockLength: 4 << 20, maxHeaderListPairs: 1 << 16 });
      c.once('connect', () => resolve(c));
      c.once('error', reject);
    });
    try {
      const many: Record<string, string> = {};
      for (let i = 0; i < 1000; i++) many[`x-field-${i}`] = 'v';
      const r1 = await h2(s, 'GET', '/version', { headers: many });
      assert.equal(r1.status, 200, r1.body.toString());
      const wide: Record<string, string> = {};
      for (let i = 0; i < 50; i++) wide[`x-wide-${i}`] = 'w'.repeat(2000);
      const r2 = await h2(s, 'GET', '/version', { headers: wide });
      assert.equal(r2.status, 200, r2.body.toString());
      assert.equal(s.remoteSettings.maxHeaderListSize, (1 << 20) + 320, 'the limit Go advertises for MaxHeaderBytes 1 MiB');
    } finally {
      s.close();
    }
  });

  it('authenticates client certificates over HTTP/2', async () => {
    const cert = await clientCert(clientCA, 'h2-user', ['h2-group']);
    const s = await session(cert);
    const review = { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' };
    for (let i = 0; i < 2; i++) {
      // Twice: the second request on the connection takes the cached decision.
      const r = await h2(s, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: review });
      assert.equal(r.status, 201, r.body.toString());
      assert.equal(json(r).status.userInfo.username, 'h2-user');
      assert.ok(json(r).status.userInfo.groups.includes('h2-group'));
    }
    s.close();
    const anon = await session();
    const r = await h2(anon, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: review });
    assert.equal(json(r).status.userInfo.username, 'system:anonymous');
    anon.close();
  });

  // Past the gzip threshold (128 KiB), so the whole list is compressed.
  it('serves chunked, gzipped and Protobuf lists and Status errors over HTTP/2', async () => {
    const s = await session();
    const ns = 'h2-lists';
    await h2(s, 'POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
    for (let i = 0; i < 30; i++) {
      await h2(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name: `cm-${i}` }, data: { v: 'x'.repeat(6000) } } });
    }
    const page = json(await h2(s, 'GET', `/api/v1/namespaces/${ns}/configmaps?limit=10`));
    assert.equal(page.items.length, 10);
    const rest = json(await h2(s, 'GET', `/api/v1/namespaces/${ns}/configmaps?limit=100&continue=${encodeURIComponent(page.metadata.continue)}`));
    // 30 and the namespace's kube-root-ca.crt.
    assert.equal(rest.items.length, 21);
    const zipped = await h2(s, 'GET', `/api/v1/namespaces/${ns}/configmaps`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(JSON.parse(gunzipSync(zipped.body).toString()).items.length, 31);
    const pb = await h2(s, 'GET', `/api/v1/namespaces/${ns}/configmaps/cm-1`, { headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    assert.equal(pb.status, 200);
    assert.equal(pb.headers['content-type'], 'application/vnd.kubernetes.protobuf');
    assert.deepEqual([...pb.body.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
    const missing = await h2(s, 'GET', `/api/v1/namespaces/${ns}/configmaps/nope`);
    assert.equal(missing.status, 404);
    assert.equal(json(missing).reason, 'NotFound');
    const notFound = await h2(s, 'GET', '/nothing-here');
    assert.equal(notFound.status, 404);
    assert.equal(notFound.body.toString(), '404 page not found\n');
    s.close();
  });

  it('answers an upgrade request over HTTP/1.1 through the chain', async () => {
    // A SPDY upgrade to a path nothing upgrades: the 'upgrade' event fires on the HTTP/2 server's
    // HTTP/1.1 side, the chain answers it as an ordinary request, and the connection closes.
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = tlsConnect({ host: '127.0.0.1', port: fx.port, ca: fx.ca, ALPNProtocols: ['http/1.1'] }, () => {
        socket.write('GET /api/v1/namespaces/default/pods/none/exec?command=true HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n\r\n');
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => (text += d));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1\.1 404 /);
    assert.match(answer, /"kind":"Status"/);
  });

  // Last: restarts the server.
  it('a graceful shutdown sends GOAWAY to HTTP/2 clients and ends their watches', async () => {
    const s = await session();
    const goaway = new Promise<number>((resolve) => s.once('goaway', (code: number) => resolve(code)));
    const stream = s.request({ ':path': '/api/v1/namespaces/default/configmaps?watch=1' });
    await new Promise((resolve) => stream.once('response', resolve));
    const ended = new Promise<void>((resolve) => stream.once('close', () => resolve()));
    stream.resume();
    const restarted = fx.restart();
    assert.equal(await goaway, constants.NGHTTP2_NO_ERROR);
    await ended;
    await restarted;
    s.close();
    const again = await session();
    assert.equal((await h2(again, 'GET', '/healthz')).status, 200);
    again.close();
  });
});

async function until(pred: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
