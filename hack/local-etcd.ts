/**
 * A throwaway etcd for tests and `make run`: started on 127.0.0.1 on free ports with a temporary
 * (or given) data dir, stopped cleanly. As a program it prints `ETCD_ENDPOINT=<url>` and keeps
 * etcd running until it receives SIGINT or SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A running etcd and the way to stop it. */
export interface LocalEtcd {
  /** The client URL, e.g. http://127.0.0.1:40123. */
  readonly endpoint: string;
  readonly dataDir: string;
  readonly pid: number;
  /** Stops etcd (SIGTERM, then SIGKILL after 5s) and removes a temporary data dir. Idempotent. */
  stop(): Promise<void>;
  /** Kills etcd without removing its data (to test an unreachable store); start() again with the same dataDir resumes it. */
  kill(): Promise<void>;
}

/** Options for startLocalEtcd. */
export interface LocalEtcdOptions {
  /** A data dir to use and keep; when absent a temporary one is made and removed on stop. */
  dataDir?: string;
  /** The client port; a free one when absent. */
  clientPort?: number;
  /** Where etcd writes its log; discarded when absent. */
  logFile?: string;
  /**
   * Runs etcd in a process group of its own, so that a terminal's Ctrl-C reaches only the caller,
   * which then stops the API server before etcd (`make run`). Tests leave it off: their etcd must
   * go when they do.
   */
  detached?: boolean;
}

/** Finds a TCP port on 127.0.0.1 that is free right now. */
export async function freePort(): Promise<number> {
  return await new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

function etcdBinary(): string {
  return process.env.ETCD_BIN ?? 'etcd';
}

async function waitHealthy(endpoint: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`etcd exited with code ${child.exitCode} before it became healthy`);
    try {
      const res = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(1000) });
      const body = (await res.json()) as { health?: string };
      if (res.ok && body.health === 'true') return;
      lastError = JSON.stringify(body);
    } catch (err) {
      lastError = String(err);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`etcd at ${endpoint} not healthy after ${timeoutMs}ms: ${lastError}`);
}

/** Starts etcd on free loopback ports and resolves once its /health answers true. */
export async function startLocalEtcd(options: LocalEtcdOptions = {}): Promise<LocalEtcd> {
  // Ports are picked free but only claimed when etcd binds them: another process (a parallel test
  // file) can take one in between, and etcd then exits at once. Chosen ports are tried again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (err) {
      const exitedEarly = err instanceof Error && /exited with code/.test(err.message);
      if (!exitedEarly || options.clientPort !== undefined || attempt >= 3) throw err;
    }
  }
}

async function startOnce(options: LocalEtcdOptions): Promise<LocalEtcd> {
  const temporary = options.dataDir === undefined;
  const dataDir = options.dataDir ? resolve(options.dataDir) : await mkdtemp(join(tmpdir(), 'capstan-etcd-'));
  await mkdir(dataDir, { recursive: true });
  const clientPort = options.clientPort ?? (await freePort());
  const peerPort = await freePort();
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const args = [
    '--name', 'capstan',
    '--data-dir', dataDir,
    '--listen-client-urls', endpoint,
    '--advertise-client-urls', endpoint,
    '--listen-peer-urls', peer,
    '--initial-advertise-peer-urls', peer,
    '--initial-cluster', `capstan=${peer}`,
    '--initial-cluster-state', 'new',
    '--logger', 'zap',
    '--log-level', 'warn',
  ];
  const { openSync, closeSync } = await import('node:fs');
  const logFd = options.logFile ? openSync(options.logFile, 'a') : 'ignore';
  const child = spawn(etcdBinary(), args, { stdio: ['ignore', logFd, logFd], detached: options.detached ?? false });
  if (typeof logFd === 'number') closeSync(logFd);
  const spawnError = new Promise<never>((_, reject) => child.once('error', reject));
  spawnError.catch(() => undefined);
  try {
    await Promise.race([waitHealthy(endpoint, child, 20_000), spawnError]);
  } catch (err) {
    child.kill('SIGKILL');
    if (temporary) await rm(dataDir, { recursive: true, force: true });
    throw err;
  }

  let stopped = false;
  const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
  const terminate = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  return {
    endpoint,
    dataDir,
    pid: child.pid ?? -1,
    async stop() {
      if (stopped) return;
      stopped = true;
      await terminate();
      if (temporary) await rm(dataDir, { recursive: true, force: true });
    },
    async kill() {
      await terminate();
    },
  };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const port = opt('--port');
  const etcd = await startLocalEtcd({
    dataDir: opt('--data-dir'),
    clientPort: port ? Number(port) : undefined,
    logFile: opt('--log-file'),
  });
  process.stdout.write(`ETCD_ENDPOINT=${etcd.endpoint}\nETCD_PID=${etcd.pid}\nETCD_DATA_DIR=${etcd.dataDir}\n`);
  const shutdown = (): void => {
    void etcd.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    process.stderr.write(`local-etcd: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
