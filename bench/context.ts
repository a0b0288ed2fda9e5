/**
 * What every benchmark is handed: the shared etcd, a cert dir, how to start server children
 * (profiled or not) and the way to report progress. Benchmarks start their own servers and stop
 * them before they return, so that each one measures a fresh process.
 */
import type { BenchResult } from './results.js';
import { spawnServer, type ServerHandle } from './server-handle.js';

/** The run-wide facts and helpers a benchmark uses. */
export interface BenchContext {
  readonly etcdEndpoint: string;
  readonly certDir: string;
  /** Whether this build's flags accept --watch-cache (so ServerOptions takes watchCache). */
  readonly watchCacheFlag: boolean;
  /** Namespace holding the seeded Pods, and how many there are. */
  readonly listNamespace: string;
  readonly listCount: number;
  /** Starts an API server child (extra ServerOptions merged in; flags parsed as the command line's). */
  apiServer(extra?: Record<string, unknown>, flags?: readonly string[]): Promise<ServerHandle>;
  /** Starts a bare HTTPS server child. */
  bareServer(): Promise<ServerHandle>;
  /** Prints a progress line. */
  log(message: string): void;
}

/** A benchmark: measures and returns its result lines (never throws for a missed target). */
export type Benchmark = (ctx: BenchContext) => Promise<BenchResult[]>;

/** Creates the context; with cpuProfileDir, ServerHandle.profile() writes CPU profiles there. */
export function newContext(base: Omit<BenchContext, 'apiServer' | 'bareServer' | 'log'>, cpuProfileDir: string | undefined): BenchContext {
  const started = performance.now();
  return {
    ...base,
    apiServer: (extra, flags) =>
      spawnServer(
        { mode: 'api', etcdEndpoint: base.etcdEndpoint, certDir: base.certDir, ...(extra ? { extra } : {}), ...(flags ? { flags } : {}) },
        cpuProfileDir ? { cpuProfileDir } : {},
      ),
    bareServer: () => spawnServer({ mode: 'bare', etcdEndpoint: base.etcdEndpoint, certDir: base.certDir }, cpuProfileDir ? { cpuProfileDir } : {}),
    log: (message) => process.stdout.write(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)}s] ${message}\n`),
  };
}

/** Runs fn with a server and always stops it, even when fn throws. */
export async function withServer<T>(server: ServerHandle, fn: (s: ServerHandle) => Promise<T>): Promise<T> {
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}
