/**
 * The watch cache over HTTP: a watch that starts before the cache's window of events is 410
 * Expired (with etcd uncompacted: the window alone decides), and a watcher that stops reading is
 * ended once its queue is full, counted in apiserver_terminated_watchers_total, without the
 * server holding the events it could not deliver.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connect, type TLSSocket } from 'node:tls';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { useServer } from '../support/server.js';

// A window of 5 events, and watchers ended once 20 events wait for them.
const fx = useServer({ watchCacheTuning: { minWindow: 5, maxWindow: 5, maxBufferedEvents: 20 } });
const ns = 'default';
const cms = `/api/v1/namespaces/${ns}/configmaps`;

function cm(name: string, bytes = 0): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { pad: 'x'.repeat(bytes) } };
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function retainedBytes(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/** Opens a watch over a raw TLS socket that reads nothing until told to. */
function stuckWatch(path: string): Promise<{ socket: TLSSocket; drain(): Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: fx.port, ca: fx.ca, servername: 'localhost' }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n`);
      // Read just the response head, then stop reading.
      socket.once('data', (head: Buffer) => {
        socket.pause();
        const chunks: Buffer[] = [head];
        resolve({
          socket,
          drain: () =>
            new Promise((done) => {
              const text = (): string => Buffer.concat(chunks).toString('utf8');
              // The connection stays open (keep-alive): the body's end is its terminating chunk.
              socket.on('data', (c: Buffer) => {
                chunks.push(c);
                if (text().endsWith('\r\n0\r\n\r\n')) done(text());
              });
              socket.on('end', () => done(text()));
              socket.on('close', () => done(text()));
              socket.resume();
            }),
        });
      });
    });
    socket.on('error', reject);
  });
}

async function metric(name: string, labels: string): Promise<number> {
  const text = (await fx.request('GET', '/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('watch cache over HTTP', () => {
  it('a watch from before the window is 410 Expired though etcd still has the revision; one inside it streams', async () => {
    const before = (await fx.request('GET', cms)).json().metadata.resourceVersion as string;
    let last = '';
    for (let i = 0; i < 8; i++) {
      const created = await fx.request('POST', cms, { body: cm(`w-${i}`) });
      assert.equal(created.status, 201);
      last = created.json().metadata.resourceVersion as string;
    }
    // etcd can still serve `before` (nothing compacted): only the cache's window is too short.
    assert.equal((await fx.request('GET', `${cms}?resourceVersion=${before}&resourceVersionMatch=Exact`)).status, 200);
    // The cache follows etcd a moment behind: a list not older than the last create waits until it
    // has seen all eight, so its window has moved past `before` (else the watch would rightly start).
    assert.equal((await fx.request('GET', `${cms}?resourceVersion=${last}&resourceVersionMatch=NotOlderThan`)).status, 200);
    // timeoutSeconds: should the watch wrongly start, the test fails instead of waiting 30 minutes.
    const old = await fx.request('GET', `${cms}?watch=true&resourceVersion=${before}&timeoutSeconds=5`);
    assert.equal(old.status, 410);
    const status = old.json();
    assert.equal(status.reason, 'Expired');
    assert.match(status.message, /^too old resource version: \d+ \(\d+\)$/);
    const latest = (await fx.request('GET', cms)).json().metadata.resourceVersion as string;
    const fresh = await fx.request('GET', `${cms}?watch=true&resourceVersion=${latest}&timeoutSeconds=1`);
    assert.equal(fresh.status, 200);
  });

  it('a watcher that stops reading is ended and counted, and the events it missed are not kept for it', async () => {
    const name = 'stuck-target';
    assert.equal((await fx.request('POST', cms, { body: cm(name) })).status, 201);
    const rv = (await fx.request('GET', `${cms}/${name}`)).json().metadata.resourceVersion as string;
    const terminatedBefore = await metric('apiserver_terminated_watchers_total', 'resource="configmaps"');
    // timeoutSeconds bounds the stream should the server fail to end it (the test then fails, not hangs).
    const watch = await stuckWatch(`${cms}?watch=true&resourceVersion=${rv}&fieldSelector=metadata.name%3D${name}&timeoutSeconds=60`);
    try {
      await stuckWatcherChecks(watch, name, terminatedBefore);
    } finally {
      watch.socket.destroy();
    }
  });
});

/** The checks on a watcher that reads nothing while its object is updated 400 times. */
async function stuckWatcherChecks(watch: { drain(): Promise<string> }, name: string, terminatedBefore: number): Promise<void> {
  const base = retainedBytes();
  // 400 updates of 16 KiB: 6.4 MiB that a watcher queue without a bound would hold.
  for (let i = 0; i < 400; i++) {
    const res = await fx.request('PUT', `${cms}/${name}`, { body: { ...cm(name, 16 * 1024), data: { pad: `${i}`.padEnd(16 * 1024, 'x') } } });
    assert.equal(res.status, 200);
  }
  const grown = retainedBytes() - base;
  assert.ok(grown < 3 * 1024 * 1024, `the server kept ${grown} bytes more with a stuck watcher`);
  assert.equal(await metric('apiserver_terminated_watchers_total', 'resource="configmaps"'), terminatedBefore + 1);
  // The client, reading again, finds a stream that ended (the terminating chunk) short of the 400 events.
  const body = await watch.drain();
  assert.ok(body.endsWith('0\r\n\r\n'), 'the chunked stream was ended by the server');
  const events = body.split('\n').filter((l) => l.startsWith('{"type":'));
  assert.ok(events.length < 400, `${events.length} events were delivered`);
}
