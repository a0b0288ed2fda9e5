/**
 * Test support: a real etcd and a real API server (in this process) on free ports, with a CA,
 * a kubeconfig and an HTTPS client for them. Registered with before/after hooks per test file.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { freePort, startLocalEtcd, type LocalEtcd } from '../../hack/local-etcd.js';
import { kubeconfig } from '../../hack/run-local.js';
import { createLogger, type KlogLogger } from '../../internal/observability/logging.js';
import { parseFlags, type ServerOptions } from '../../internal/server/options/flags.js';
import type { FlagGroupOptions } from '../../internal/server/options/groups.js';
import { defaultSecureServingOptions } from '../../internal/server/options/secure-serving.js';
import { startServer, type RunningServer } from '../../internal/server/server.js';

/** A response as tests read it. */
export interface TestResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  readonly text: string;
  json<T = any>(): T;
}

/** The running fixture. */
export interface ServerFixture {
  etcd: LocalEtcd;
  server: RunningServer;
  port: number;
  ca: string;
  dir: string;
  kubeconfigPath: string;
  options: ServerOptions;
  /** One HTTPS request to the server. */
  request(method: string, path: string, opts?: { body?: unknown; headers?: Record<string, string>; rawBody?: string | Buffer }): Promise<TestResponse>;
  /** Stops and starts the API server again on the same port and etcd. */
  restart(): Promise<void>;
  /**
   * Settles when the before() hook has started the server (rejects if it failed). node 20 runs a
   * file's top-level before() hooks concurrently, so another top-level hook that needs the server
   * awaits this.
   */
  readonly started: Promise<void>;
}

/** Options for the server under test (defaults suit tests). */
export function testServerOptions(etcdEndpoint: string, port: number, certDir: string, extra: Partial<ServerOptions> = {}): ServerOptions {
  return {
    etcdServers: [etcdEndpoint],
    etcdPrefix: '/registry',
    // kube's default, so every test exercises Protobuf storage unless it asks otherwise.
    storageMediaType: 'application/vnd.kubernetes.protobuf',
    watchCache: true,
    watchCacheSizes: new Map(),
    defaultWatchCacheSize: 100,
    securePort: port,
    bindAddress: '127.0.0.1',
    secureServing: { ...defaultSecureServingOptions, certDir },
    etcdCompactionIntervalMs: 0,
    requestTimeoutMs: 60_000,
    minRequestTimeoutSeconds: 1800,
    verbosity: 0,
    serviceClusterIPRange: '10.0.0.0/24',
    // A documentation address: the default/kubernetes Endpoints refuse loopback addresses, as kube's do.
    advertiseAddress: '192.0.2.10',
    // Watches still open when a test stops its server end at once (kube's default, no grace period,
    // would hold every such stop for --request-timeout before cutting them).
    shutdown: { delayDurationMs: 0, sendRetryAfter: false, watchTerminationGracePeriodMs: 10_000 },
    ...extra,
  };
}

/** Performs one request against https://127.0.0.1:port with ca trusted. */
export function httpsCall(
  port: number,
  ca: string,
  method: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string>; rawBody?: string | Buffer } = {},
): Promise<TestResponse> {
  const payload =
    opts.rawBody !== undefined ? Buffer.from(opts.rawBody) : opts.body !== undefined ? Buffer.from(JSON.stringify(opts.body)) : undefined;
  const headers: Record<string, string> = { ...(payload && opts.rawBody === undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers };
  if (payload) headers['content-length'] = String(payload.length);
  const ro: RequestOptions = { host: '127.0.0.1', port, path, method, headers, ca, servername: 'localhost' };
  return new Promise((resolve, reject) => {
    const req = httpsRequest(ro, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          text,
          json: () => JSON.parse(text),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

// Diagnosis of a test process that does not exit: remember where every pending ref'd timer was made.
const pendingTimers = new Map<object, string>();
if (process.env.CAPSTAN_TEST_HANDLES === '1') {
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  (globalThis as { setTimeout: unknown }).setTimeout = ((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const t = realSet((...a: unknown[]) => {
      pendingTimers.delete(t);
      fn(...a);
    }, ms, ...args);
    pendingTimers.set(t, new Error('timer').stack ?? '');
    const unref = t.unref.bind(t);
    t.unref = () => {
      pendingTimers.delete(t);
      return unref();
    };
    return t;
  }) as typeof setTimeout;
  (globalThis as { clearTimeout: unknown }).clearTimeout = ((t: NodeJS.Timeout | undefined) => {
    if (t) pendingTimers.delete(t);
    realClear(t);
  }) as typeof clearTimeout;
}

/**
 * The flag groups' options (authentication, authorization, TLS, ...) for kube-apiserver flags, as
 * the server's command line would set them; throws with the flag error on an invalid flag.
 */
export function groupOptionsFromFlags(flags: readonly string[]): FlagGroupOptions {
  const parsed = parseFlags(['--etcd-servers=http://127.0.0.1:2379', ...flags], 'test');
  if (parsed.kind !== 'run') throw new Error(`invalid test flags ${flags.join(' ')}: ${parsed.stderr ?? ''}`);
  return parsed.groups;
}

/** Flags for the server under test, or a function making them once before() runs (to write files first). */
export type TestFlags = readonly string[] | (() => readonly string[] | Promise<readonly string[]>);

/**
 * Starts etcd and the server before the file's tests and stops them after. extra overrides
 * options directly; flags are parsed as the command line would parse them (the flag groups only).
 * opts.log replaces the server's (silent) logger, for tests that read what it writes.
 */
export function useServer(extra: Partial<ServerOptions> = {}, flags: TestFlags = [], opts: { log?: KlogLogger } = {}): ServerFixture {
  const fx = {} as ServerFixture & { started: Promise<void> };
  const log = opts.log ?? createLogger(0, process.env.CAPSTAN_TEST_LOG !== '1');
  let settle: { resolve(): void; reject(err: unknown): void } | undefined;
  fx.started = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  fx.started.catch(() => undefined);
  before(async () => {
    try {
      await startFixture();
      settle?.resolve();
    } catch (err) {
      settle?.reject(err);
      throw err;
    }
  });
  async function startFixture(): Promise<void> {
    fx.etcd = await startLocalEtcd();
    fx.dir = await mkdtemp(join(tmpdir(), 'capstan-test-'));
    fx.port = await freePort();
    const flagList = typeof flags === 'function' ? await flags() : flags;
    // The test's cert dir unless the flags name another (the last --cert-dir wins).
    const { shutdown, ...fromFlags } = flagList.length > 0 ? groupOptionsFromFlags([`--cert-dir=${join(fx.dir, 'certs')}`, ...flagList]) : {};
    // The shutdown group's defaults from flags only when a test sets one of its flags.
    const shutdownFlags = flagList.some((f) => f.startsWith('--shutdown-')) && shutdown ? { shutdown } : {};
    fx.options = testServerOptions(fx.etcd.endpoint, fx.port, join(fx.dir, 'certs'), { ...fromFlags, ...shutdownFlags, ...extra });
    fx.server = await startServer(fx.options, log);
    await fx.server.ready;
    fx.ca = fx.server.certificate.ca ?? '';
    fx.kubeconfigPath = join(fx.dir, 'kubeconfig');
    await writeFile(fx.kubeconfigPath, kubeconfig(`https://127.0.0.1:${fx.port}`, fx.ca));
    fx.request = (method, path, opts) => httpsCall(fx.port, fx.ca, method, path, opts);
    fx.restart = async () => {
      await fx.server.stop();
      fx.server = await startServer(fx.options, log);
      await fx.server.ready;
    };
  }
  after(async () => {
    await fx.server?.stop();
    await fx.etcd?.stop();
    if (fx.dir) await rm(fx.dir, { recursive: true, force: true });
    if (process.env.CAPSTAN_TEST_HANDLES === '1') {
      // Diagnosis of a test process that does not exit: what still holds its event loop.
      setTimeout(() => {
        const handles = (process as unknown as { _getActiveHandles(): object[] })._getActiveHandles();
        console.error(`[handles] ${handles.map((h) => h.constructor.name).join(', ')} [resources] ${process.getActiveResourcesInfo().join(', ')}`);
        for (const h of handles) if (h.constructor.name === 'TLSSocket' || h.constructor.name === 'Socket') console.error('[socket]', (h as { remotePort?: number }).remotePort, (h as { localPort?: number }).localPort);
        for (const stack of pendingTimers.values()) console.error(`[timer] ${stack.split('\n').slice(2, 7).join(' | ')}`);
      }, 3000).unref();
    }
  });
  return fx;
}
