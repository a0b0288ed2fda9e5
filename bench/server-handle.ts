/**
 * The runner's side of a server child: spawns dist/bench/server-process.js with --expose-gc, waits
 * for it to serve, and turns IPC requests into promises. When a profile directory is given,
 * profile(label, fn) records the child's CPU profile while fn runs.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServerFailure } from './client.js';
import type { ChildRequest, MemorySample, PeakReport, ReadyMessage, ServerChildConfig } from './ipc.js';

type RequestBody<T> = T extends { id: number } ? Omit<T, 'id'> : never;

/** A running server child. */
export interface ServerHandle {
  readonly port: number;
  readonly ca: string;
  readonly pid: number;
  /** process.memoryUsage() of the child, after a full GC when gc is true. */
  memory(gc: boolean): Promise<MemorySample>;
  /** Full GC, then records the baseline and resets the peak trackers. */
  mark(): Promise<MemorySample>;
  /** The peaks since the last mark. */
  peak(): Promise<PeakReport>;
  /** Bare mode only: the body every request gets. */
  setBody(body: string, contentType: string): Promise<void>;
  /** Runs fn; when profiling, the child's CPU profile over fn is written to DIR/<label>.cpuprofile. */
  profile<T>(label: string, fn: () => Promise<T>): Promise<T>;
  /** Stops the server and waits for the child to exit (killed after timeoutMs). Idempotent. */
  stop(timeoutMs?: number): Promise<void>;
  /** Whether the child is still running. */
  alive(): boolean;
}

/** How to spawn. */
export interface SpawnOptions {
  /** Where profile() writes; profile() only runs fn when absent. */
  readonly cpuProfileDir?: string;
}

const here = dirname(fileURLToPath(import.meta.url));

/** Starts a server child with config and resolves once it serves (rejects if it exits first). */
export async function spawnServer(config: ServerChildConfig, opts: SpawnOptions = {}): Promise<ServerHandle> {
  const execArgv = ['--expose-gc'];
  const child: ChildProcess = fork(join(here, 'server-process.js'), [], {
    execArgv,
    env: { ...process.env, BENCH_SERVER: JSON.stringify(config) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<ReadyMessage>((resolve, reject) => {
    const onMessage = (m: unknown): void => {
      if ((m as ReadyMessage).type === 'ready') {
        child.off('exit', onExit);
        child.off('message', onMessage);
        resolve(m as ReadyMessage);
      }
    };
    const onExit = (code: number | null, signal: string | null): void => reject(new ServerFailure(`server child exited (${code ?? signal}) before it served`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });

  let nextId = 1;
  const pending = new Map<number, { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  child.on('message', (m: unknown) => {
    const msg = m as { id?: number };
    if (msg.id === undefined) return;
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    p?.resolve(msg as Record<string, unknown>);
  });
  child.once('exit', (code, signal) => {
    for (const p of pending.values()) p.reject(new ServerFailure(`server child exited (${code ?? signal})`));
    pending.clear();
  });
  const call = (req: RequestBody<ChildRequest>): Promise<Record<string, unknown>> =>
    new Promise((resolve, reject) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        reject(new ServerFailure('server child is not running'));
        return;
      }
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ ...req, id });
    });

  let stopping: Promise<void> | undefined;
  return {
    port: ready.port,
    ca: ready.ca,
    pid: ready.pid,
    alive: () => child.exitCode === null && child.signalCode === null,
    memory: async (gc) => (await call({ type: 'memory', gc })).memory as MemorySample,
    mark: async () => (await call({ type: 'mark' })).memory as MemorySample,
    peak: async () => (await call({ type: 'peak' })).peak as PeakReport,
    setBody: async (body, contentType) => {
      await call({ type: 'set-body', body, contentType });
    },
    profile: async (label, fn) => {
      if (!opts.cpuProfileDir) return await fn();
      await call({ type: 'profile-start' });
      try {
        return await fn();
      } finally {
        await call({ type: 'profile-stop', path: join(opts.cpuProfileDir, `${label}.cpuprofile`) }).catch(() => undefined);
      }
    },
    stop: (timeoutMs = 20_000) => {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        call({ type: 'stop' }).catch(() => undefined);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}
