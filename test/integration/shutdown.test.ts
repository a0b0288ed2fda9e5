/**
 * Graceful shutdown against real servers and a real etcd, as kube-apiserver does it:
 * --shutdown-delay-duration (readyz fails at once, everything is served through the delay),
 * in-flight requests finishing after the listener closed, --shutdown-send-retry-after (429 with
 * Retry-After and Connection: close while draining), --shutdown-watch-termination-grace-period
 * (watches end cleanly) against watches being cut after --request-timeout without it, and a real
 * process draining on SIGTERM and exiting 0 (a second signal exits at once).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { Agent, request as httpsRequest, type RequestOptions } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { freePort, startLocalEtcd, type LocalEtcd } from '../../hack/local-etcd.js';
import { createLogger } from '../../internal/observability/logging.js';
import type { ServerOptions } from '../../internal/server/options/flags.js';
import { startServer, type RunningServer } from '../../internal/server/server.js';
import { groupOptionsFromFlags, testServerOptions } from '../support/server.js';

interface Target {
  readonly server: RunningServer;
  readonly port: number;
  readonly ca: string;
}

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

let etcd: LocalEtcd;
let dir: string;

before(async () => {
  etcd = await startLocalEtcd();
  dir = await mkdtemp(join(tmpdir(), 'capstan-shutdown-'));
});

after(async () => {
  await etcd?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const configmaps = '/api/v1/namespaces/default/configmaps';

async function start(flags: readonly string[], extra: Partial<ServerOptions> = {}): Promise<Target> {
  const port = await freePort();
  const certDir = join(dir, 'certs');
  const options = testServerOptions(etcd.endpoint, port, certDir, { ...groupOptionsFromFlags([`--cert-dir=${certDir}`, ...flags]), ...extra });
  const server = await startServer(options, createLogger(0, process.env.CAPSTAN_TEST_LOG !== '1'));
  await server.ready;
  return { server, port, ca: server.certificate.ca ?? '' };
}

function options(port: number, ca: string, method: string, path: string, agent: Agent | false, headers: Record<string, string | number> = {}): RequestOptions {
  return { host: '127.0.0.1', port, path, method, ca, servername: 'localhost', agent, headers };
}

/** One request; rejects with the socket error (its code: ECONNREFUSED, ECONNRESET, ...). */
function call(t: { port: number; ca: string }, method: string, path: string, body?: unknown, agent: Agent | false = false): Promise<Reply> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string | number> = payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {};
  return new Promise((resolve, reject) => {
    const req = httpsRequest(options(t.port, t.ca, method, path, agent, headers), (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Clients creating and reading ConfigMaps in a loop over keep-alive connections. */
class Load {
  readonly created: string[] = [];
  readonly errors: string[] = [];
  readonly turnedAway: Reply[] = [];
  private stopped = false;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4 });
  readonly done: Promise<void>;

  constructor(
    private readonly t: Target,
    prefix: string,
    workers = 4,
  ) {
    this.done = Promise.all(Array.from({ length: workers }, (_, w) => this.run(`${prefix}-${w}`))).then(() => undefined);
  }

  private async run(prefix: string): Promise<void> {
    for (let i = 0; !this.stopped; i++) {
      const name = `${prefix}-${i}`;
      try {
        const created = await call(this.t, 'POST', configmaps, { metadata: { name }, data: { i: String(i) } }, this.agent);
        if (created.status === 429) {
          // Told to go elsewhere: a client does, and this one stops.
          this.turnedAway.push(created);
          return;
        }
        if (created.status !== 201) {
          this.errors.push(`create ${name}: ${created.status} ${created.text}`);
          return;
        }
        this.created.push(name);
        const read = await call(this.t, 'GET', `${configmaps}/${name}`, undefined, this.agent);
        if (read.status === 429) {
          this.turnedAway.push(read);
          return;
        }
        if (read.status !== 200) this.errors.push(`get ${name}: ${read.status}`);
      } catch (err) {
        this.errors.push(`${name}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
        return;
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
    this.agent.destroy();
  }
}

/** A create whose body arrives in two parts: in flight from the first until finish() sends the rest. */
function slowCreate(t: Target, name: string): { finish(): void; reply: Promise<Reply> } {
  const body = JSON.stringify({ metadata: { name }, data: { payload: 'x'.repeat(1000) } });
  let finish = (): void => undefined;
  const reply = new Promise<Reply>((resolve, reject) => {
    const req = httpsRequest(options(t.port, t.ca, 'POST', configmaps, false, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }), (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.write(body.slice(0, 20));
    finish = () => req.end(body.slice(20));
  });
  return { finish: () => finish(), reply };
}

/** An open watch; ended says how it ended: cleanly ('end') or cut ('cut'). */
function openWatch(t: Target): Promise<{ ended: Promise<'end' | 'cut'> }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(options(t.port, t.ca, 'GET', `${configmaps}?watch=true`, false), (res) => {
      assert.equal(res.statusCode, 200);
      const ended = new Promise<'end' | 'cut'>((done) => {
        res.on('end', () => done('end'));
        res.on('aborted', () => done('cut'));
        res.on('error', () => done('cut'));
        res.on('close', () => done(res.complete ? 'end' : 'cut'));
      });
      res.resume();
      resolve({ ended });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The names of the ConfigMaps in etcd's default namespace. */
async function namesInEtcd(): Promise<Set<string>> {
  const client = new Etcd3({ hosts: etcd.endpoint });
  try {
    const keys = await client.getAll().prefix('/registry/configmaps/default/').keys();
    return new Set(keys.map((k) => k.slice('/registry/configmaps/default/'.length)));
  } finally {
    client.close();
  }
}

describe('graceful shutdown', () => {
  it('--shutdown-delay-duration: readyz fails at once, livez passes, the load is served through the delay; in-flight requests finish; accepted writes are in etcd', async () => {
    const t = await start(['--shutdown-delay-duration=2s']);
    const load = new Load(t, 'delay');
    await sleep(300);
    const slow = slowCreate(t, 'delay-slow');
    await sleep(200);
    const stopStarted = Date.now();
    let stopped = false;
    const stopping = t.server.stop().then(() => (stopped = true));

    const ready = await call(t, 'GET', '/readyz');
    assert.equal(ready.status, 500);
    assert.match(ready.text, /^\[-\]shutdown failed: reason withheld\nreadyz check failed\n$/m);
    assert.ok(ready.text.startsWith('[+]ping ok\n'));
    assert.deepEqual([(await call(t, 'GET', '/readyz/shutdown')).text], ['internal server error: process is shutting down\n']);
    assert.deepEqual([(await call(t, 'GET', '/livez')).status, (await call(t, 'GET', '/healthz')).text], [200, 'ok']);

    // A load balancer notices readyz within the delay and sends no more; until then all is served.
    await sleep(1000);
    // (On a loaded machine the probes above can take most of the delay: only judged while it lasts.)
    if (Date.now() - stopStarted < 1800) assert.equal(t.server.signals.notAcceptingNewRequest.signaled, false);
    await load.stop();
    assert.deepEqual(load.errors, []);
    assert.ok(load.created.length >= 4, `${load.created.length} created`);

    await t.server.signals.notAcceptingNewRequest.wait();
    assert.ok(Date.now() - stopStarted >= 1950, 'the listener closes only after the delay');
    await assert.rejects(call(t, 'GET', '/livez'), { code: 'ECONNREFUSED' });
    await sleep(300);
    assert.equal(stopped, false, 'the shutdown waits for the request in flight');
    slow.finish();
    const reply = await slow.reply;
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.headers.connection, 'close');
    await stopping;
    const stored = await namesInEtcd();
    for (const name of [...load.created, 'delay-slow']) assert.ok(stored.has(name), `${name} is in etcd`);
  });

  it('--shutdown-send-retry-after: while draining new requests get 429 with Retry-After and Connection: close, probes are served, in-flight ones finish, then the listener closes', async () => {
    const t = await start(['--shutdown-delay-duration=1s', '--shutdown-send-retry-after']);
    const load = new Load(t, 'retry');
    await sleep(300);
    const slow = slowCreate(t, 'retry-slow');
    await sleep(200);
    const stopping = t.server.stop();
    assert.equal((await call(t, 'GET', '/readyz')).status, 500);

    // The load runs on until each client is turned away.
    await t.server.signals.notAcceptingNewRequest.wait();
    const turned = await call(t, 'POST', configmaps, { metadata: { name: 'retry-late' } });
    assert.equal(turned.status, 429);
    assert.equal(turned.headers['retry-after'], '5');
    assert.equal(turned.headers.connection, 'close');
    assert.equal(turned.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(turned.text, 'The apiserver is shutting down, please try again later.\n');
    assert.equal((await call(t, 'GET', '/readyz/shutdown')).status, 500, 'probes are still served');
    assert.equal((await call(t, 'GET', '/livez')).text, 'ok');
    assert.equal((await call(t, 'GET', '/metrics')).status, 200);
    await load.done;
    assert.deepEqual(load.errors, []);
    assert.equal(load.turnedAway.length, 4);
    for (const r of load.turnedAway) assert.deepEqual([r.status, r.headers['retry-after'], r.headers.connection], [429, '5', 'close']);
    assert.ok(load.created.length >= 4, `${load.created.length} created`);

    assert.equal(t.server.signals.httpServerStoppedListening.signaled, false, 'listening until the in-flight requests drained');
    slow.finish();
    assert.equal((await slow.reply).status, 201);
    await stopping;
    assert.equal(t.server.signals.httpServerStoppedListening.signaled, true);
    await assert.rejects(call(t, 'GET', '/livez'), { code: 'ECONNREFUSED' });
    const stored = await namesInEtcd();
    for (const name of [...load.created, 'retry-slow']) assert.ok(stored.has(name), `${name} is in etcd`);
    assert.ok(!stored.has('retry-late'));
  });

  it('--shutdown-watch-termination-grace-period: open watches end cleanly and the shutdown does not wait for --request-timeout', async () => {
    const t = await start(['--shutdown-watch-termination-grace-period=10s']);
    const watches = await Promise.all([openWatch(t), openWatch(t), openWatch(t)]);
    const started = Date.now();
    await t.server.stop();
    assert.deepEqual(await Promise.all(watches.map((w) => w.ended)), ['end', 'end', 'end']);
    assert.ok(Date.now() - started < 6000, `stopped in ${Date.now() - started}ms`);
  });

  it('without a watch grace period (kube\'s default) watches are not waited for: they are cut once --request-timeout has passed', async () => {
    const t = await start([], { requestTimeoutMs: 1500 });
    const watch = await openWatch(t);
    const started = Date.now();
    let endedAt = 0;
    void watch.ended.then(() => (endedAt = Date.now()));
    await t.server.stop();
    assert.equal(await watch.ended, 'cut');
    assert.ok(endedAt - started >= 1400 && endedAt - started < 8000, `cut after ${endedAt - started}ms`);
  });
});

describe('a server process', () => {
  const main = fileURLToPath(new URL('../../cmd/apiserver/main.js', import.meta.url));

  async function spawnServer(flags: readonly string[]) {
    const port = await freePort();
    const certDir = join(dir, `proc-${port}`);
    const child = spawn(
      process.execPath,
      [main, `--etcd-servers=${etcd.endpoint}`, `--secure-port=${port}`, '--bind-address=127.0.0.1', '--advertise-address=192.0.2.10', `--cert-dir=${certDir}`, ...flags],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const deadline = Date.now() + 30_000;
    let target: { port: number; ca: string } | undefined;
    while (Date.now() < deadline && child.exitCode === null) {
      try {
        const t = { port, ca: await readFile(join(certDir, 'ca.crt'), 'utf8') };
        if ((await call(t, 'GET', '/readyz')).status === 200) {
          target = t;
          break;
        }
      } catch {
        // Not up yet.
      }
      await sleep(200);
    }
    if (!target) {
      child.kill('SIGKILL');
      assert.fail(`the server did not become ready:\n${stderr}`);
    }
    return { child, target, exited, stderr: () => stderr };
  }

  it('drains on SIGTERM and exits 0', async () => {
    const { child, target, exited, stderr } = await spawnServer(['--shutdown-delay-duration=1s']);
    try {
      const started = Date.now();
      child.kill('SIGTERM');
      await sleep(200);
      assert.equal((await call(target, 'GET', '/readyz')).status, 500);
      assert.equal((await call(target, 'GET', '/livez')).status, 200);
      const created = await call(target, 'POST', configmaps, { metadata: { name: 'process-during-delay' } });
      assert.equal(created.status, 201);
      assert.deepEqual(await exited, { code: 0, signal: null }, stderr());
      assert.ok(Date.now() - started >= 1000);
      assert.ok((await namesInEtcd()).has('process-during-delay'));
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a second signal exits at once with 1', async () => {
    const { child, target, exited } = await spawnServer(['--shutdown-delay-duration=60s']);
    try {
      child.kill('SIGINT');
      await sleep(200);
      assert.equal((await call(target, 'GET', '/readyz')).status, 500);
      const started = Date.now();
      child.kill('SIGTERM');
      assert.deepEqual(await exited, { code: 1, signal: null });
      assert.ok(Date.now() - started < 5000);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
