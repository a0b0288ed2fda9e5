/**
 * --max-connection-bytes-per-sec against the real server: what pods/proxy carries (the long-running
 * proxy requests, as kube throttles its proxied connections) flows at no more than the limit in
 * each direction, over HTTP/2 as over HTTP/1.1; other requests are not throttled.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { useServer } from '../support/server.js';

const limit = 64 * 1024;
const fx = useServer({}, [`--max-connection-bytes-per-sec=${limit}`]);

function hostIP(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  throw new Error('this host has no non-loopback IPv4 address to proxy to');
}

/** One HTTP/2 request; resolves with the body's size and how long the exchange took. */
function timed(path: string, body?: Buffer): Promise<{ status: number; bytes: number; ms: number; text: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const s = connect(`https://127.0.0.1:${fx.port}`, { ca: fx.ca });
    s.on('error', reject);
    const stream = s.request({ ':method': body ? 'POST' : 'GET', ':path': path });
    let status = 0;
    const chunks: Buffer[] = [];
    stream.on('response', (h) => (status = Number(h[':status'])));
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      s.close();
      const all = Buffer.concat(chunks);
      resolve({ status, bytes: all.length, ms: performance.now() - started, text: all.subarray(0, 200).toString() });
    });
    stream.on('error', reject);
    stream.end(body);
  });
}

describe('--max-connection-bytes-per-sec', () => {
  let backend: Server;
  const ip = hostIP();
  const pod = '/api/v1/namespaces/default/pods/throttled';
  before(async () => {
    backend = createServer((req, res) => {
      let received = 0;
      req.on('data', (c: Buffer) => (received += c.length));
      req.on('end', () => res.end(req.method === 'POST' ? String(received) : Buffer.alloc(2 * limit, 0x61)));
    });
    await new Promise<void>((resolve) => backend.listen(0, '0.0.0.0', resolve));
    const port = (backend.address() as AddressInfo).port;
    const created = await fx.request('POST', '/api/v1/namespaces/default/pods', { body: { metadata: { name: 'throttled' }, spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: port }] }] } } });
    assert.equal(created.status, 201, created.text);
    const current = created.json();
    current.status = { phase: 'Running', podIP: ip, podIPs: [{ ip }] };
    assert.equal((await fx.request('PUT', `${pod}/status`, { body: current })).status, 200);
  });
  after(() => backend?.close());

  it('throttles what pods/proxy sends back', async () => {
    const r = await timed(`${pod}/proxy/big`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.bytes, 2 * limit);
    // Two seconds' worth at the limit (the first tenth of a second's slice goes at once).
    assert.ok(r.ms >= 1800, `took ${r.ms} ms`);
    assert.ok(r.ms < 4000, `took ${r.ms} ms`);
  });

  it('throttles what the client sends through pods/proxy', async () => {
    const r = await timed(`${pod}/proxy/upload`, Buffer.alloc(limit, 0x62));
    assert.equal(r.text, String(limit));
    assert.ok(r.ms >= 850, `took ${r.ms} ms`);
  });

  it('does not throttle other requests', async () => {
    const r = await timed('/openapi/v2');
    assert.equal(r.status, 200);
    assert.ok(r.bytes > 4 * limit, `${r.bytes} bytes`);
    assert.ok(r.ms < 1500, `took ${r.ms} ms`);
  });
});
