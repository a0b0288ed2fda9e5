import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { EtcdHealthProbe } from './health-check.js';

/** A TCP port that accepts connections and never answers (an etcd that hangs). */
let blackHole: Server;
let blackHolePort = 0;
const held: Socket[] = [];

before(async () => {
  blackHole = createServer((s) => held.push(s));
  await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
  blackHolePort = (blackHole.address() as { port: number }).port;
});

after(async () => {
  for (const s of held) s.destroy();
  await new Promise((resolve) => blackHole.close(resolve));
});

async function timed(fn: () => Promise<void>): Promise<{ ms: number; error?: string }> {
  const started = Date.now();
  try {
    await fn();
    return { ms: Date.now() - started };
  } catch (err) {
    return { ms: Date.now() - started, error: (err as Error).message };
  }
}

describe('etcd health probe', () => {
  it('fails within its timeout against an etcd that does not answer, as kube words it', async () => {
    const probe = new EtcdHealthProbe([`http://127.0.0.1:${blackHolePort}`], '/registry');
    try {
      const check = probe.check(400);
      const first = timed(check);
      // Within half the timeout of a probe, no new probe: the last sent probe's outcome (here
      // still kube's initial one) comes back at once.
      const concurrent = await timed(check);
      assert.equal(concurrent.error, 'etcd client connection not yet established');
      assert.ok(concurrent.ms < 100, `took ${concurrent.ms}ms`);
      const r = await first;
      assert.equal(r.error, 'error getting data from etcd: context deadline exceeded');
      assert.ok(r.ms >= 350 && r.ms < 3000, `took ${r.ms}ms`);
      const cached = await timed(check);
      assert.ok(cached.ms >= 300, 'half the timeout after the last probe, a new one runs');
    } finally {
      probe.close();
    }
  });

  it('zero is the 2s default; a negative timeout fails at once', async () => {
    const probe = new EtcdHealthProbe([`http://127.0.0.1:${blackHolePort}`], '/registry');
    try {
      const negative = await timed(probe.check(-1000));
      assert.deepEqual(negative.error, 'error getting data from etcd: context deadline exceeded');
      assert.ok(negative.ms < 100);
      const byDefault = await timed(probe.check(0));
      assert.equal(byDefault.error, 'error getting data from etcd: context deadline exceeded');
      assert.ok(byDefault.ms >= 1900 && byDefault.ms < 5000, `default timeout took ${byDefault.ms}ms`);
    } finally {
      probe.close();
    }
  });

  it('reports a refused connection with the client\'s reason', async () => {
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as { port: number }).port;
    await new Promise((resolve) => free.close(resolve));
    const probe = new EtcdHealthProbe([`http://127.0.0.1:${port}`], '/registry');
    try {
      const r = await timed(probe.check(2000));
      assert.match(r.error ?? '', /^error getting data from etcd: .*ECONNREFUSED/);
    } finally {
      probe.close();
    }
  });
});
