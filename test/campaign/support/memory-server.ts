/**
 * The memory campaign's server under test: a real etcd and the API server as a child process, so
 * that its resident memory can be read from /proc/<pid>/status while the test process plays the
 * hostile and the well-behaved clients.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newClient, type Client } from '../../../bench/client.js';
import { spawnServer, type ServerHandle } from '../../../bench/server-handle.js';
import { startLocalEtcd, type LocalEtcd } from '../../../hack/local-etcd.js';

/** A running etcd and API server child with a keep-alive client for setup calls. */
export interface MemoryServer {
  readonly etcd: LocalEtcd;
  readonly server: ServerHandle;
  readonly client: Client;
  /** Stops the server, etcd and the client; removes the cert dir. */
  stop(): Promise<void>;
}

/** Starts etcd and the API server child with extra ServerOptions (the test's watch cache tuning). */
export async function startMemoryServer(extra: Record<string, unknown>): Promise<MemoryServer> {
  const etcd = await startLocalEtcd();
  const certDir = await mkdtemp(join(tmpdir(), 'capstan-memory-certs-'));
  let server: ServerHandle;
  try {
    server = await spawnServer({ mode: 'api', etcdEndpoint: etcd.endpoint, certDir, extra });
  } catch (err) {
    await etcd.stop();
    throw err;
  }
  const client = newClient(server.port, server.ca, 16);
  return {
    etcd,
    server,
    client,
    stop: async () => {
      client.close();
      await server.stop();
      await etcd.stop();
      await rm(certDir, { recursive: true, force: true });
    },
  };
}

/** The resident set size of process pid in MiB, as the kernel reports it (VmRSS). */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(m[1]) / 1024;
}

/** Samples a process's VmRSS every intervalMs until stopped; stop() gives the highest seen. */
export function sampleRss(pid: number, intervalMs = 20): { stop(): number } {
  let peak = rssMiB(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMiB(pid));
    } catch {
      // The process is gone; the test notices that on its own.
    }
  }, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      try {
        peak = Math.max(peak, rssMiB(pid));
      } catch {
        // As above.
      }
      return peak;
    },
  };
}

/** Fails with what was sent and what came back unless the reply has status want. */
export function expectStatus(what: string, reply: { status: number; body: Buffer }, want: number): void {
  if (reply.status !== want) throw new Error(`${what}: want ${want}, got ${reply.status}: ${reply.body.toString('utf8', 0, 300)}`);
}

/** A ConfigMap named name whose data holds about bytes bytes (one key, d), plus an index key i. */
export function bulkyConfigMap(name: string, bytes: number, i = 0): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { d: 'x'.repeat(bytes), i: String(i) } };
}

/** Runs fn(i) for i in [0, n) with at most concurrency calls in flight. */
export async function forEachConcurrently(n: number, concurrency: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, concurrency) }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}
