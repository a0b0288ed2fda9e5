/**
 * The body fuzzer's target: a real etcd and the API server as a child process (so a crash or an
 * unhandled rejection shows as the process dying, its stderr in the test output), one HTTPS client
 * with a per-request deadline, and snapshots of every key under the server's etcd prefix.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { spawnServer, type ServerHandle } from '../../../bench/server-handle.js';
import { startLocalEtcd, type LocalEtcd } from '../../../hack/local-etcd.js';

/** One answer as the fuzzer reads it. */
export interface Reply {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

/** A key's state in etcd: the revision that last wrote it (value left empty: see snapshot). */
export interface KeyState {
  readonly value: Buffer;
  readonly modRevision: string;
}

/** Every key under the prefix. */
export type Snapshot = ReadonlyMap<string, KeyState>;

/** The running etcd and server child. */
export interface FuzzTarget {
  readonly server: ServerHandle;
  /** One request with a deadline; rejects on a dropped connection or when no answer came within timeoutMs. */
  send(method: string, path: string, body?: Buffer, headers?: Record<string, string>, timeoutMs?: number): Promise<Reply>;
  /** Every key and value under the server's etcd prefix. */
  snapshot(): Promise<Snapshot>;
  stop(): Promise<void>;
}

/** The server's --etcd-prefix (test/support/server.ts testServerOptions). */
export const etcdPrefix = '/registry/';

/** Starts etcd and the API server child. */
export async function startFuzzTarget(): Promise<FuzzTarget> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-fuzz-bodies-'));
  let etcd: LocalEtcd | undefined;
  let server: ServerHandle | undefined;
  try {
    etcd = await startLocalEtcd();
    server = await spawnServer({ mode: 'api', etcdEndpoint: etcd.endpoint, certDir: join(dir, 'certs') });
  } catch (err) {
    await etcd?.stop();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const client = new Etcd3({ hosts: etcd.endpoint });
  // One kept-alive connection reused across requests, as clients do: an answer written before the
  // body was read (a 413 past 3 MiB) either leaves the connection serving the next request or (the
  // body going on 256 KiB past the limit) says `Connection: close`, and the agent connects again.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const srv = server;
  const localEtcd = etcd;
  return {
    server: srv,
    send: (method, path, body, headers = {}, timeoutMs = 15_000) =>
      new Promise<Reply>((resolve, reject) => {
        const h: Record<string, string> = { ...headers };
        if (body !== undefined && h['content-length'] === undefined && h['transfer-encoding'] === undefined) h['content-length'] = String(body.length);
        const req = httpsRequest({ host: '127.0.0.1', port: srv.port, path, method, headers: h, ca: srv.ca, servername: 'localhost', agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text: Buffer.concat(chunks).toString('utf8') });
          });
          res.on('error', (err) => {
            clearTimeout(timer);
            reject(new Error(`the answer was cut off: ${err.message}`));
          });
        });
        const timer = setTimeout(() => {
          req.destroy();
          reject(new Error(`no answer within ${timeoutMs} ms`));
        }, timeoutMs);
        req.on('error', (err) => {
          clearTimeout(timer);
          reject(new Error(`connection failed: ${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}`));
        });
        req.end(body);
      }),
    snapshot: async () => {
      // Keys and revisions only: any write to a key moves its mod_revision, and values of megabytes
      // (accepted ConfigMaps near 1 MiB) would overrun gRPC's 4 MiB answer.
      const prefix = Buffer.from(etcdPrefix);
      const end = Buffer.from(prefix);
      end[end.length - 1] = (end[end.length - 1] ?? 0) + 1;
      const res = await client.kv.range({ key: prefix, range_end: end, keys_only: true });
      const out = new Map<string, KeyState>();
      for (const kv of res.kvs) out.set(kv.key.toString('utf8'), { value: Buffer.alloc(0), modRevision: String(kv.mod_revision) });
      return out;
    },
    stop: async () => {
      agent.destroy();
      await srv.stop();
      client.close();
      await localEtcd.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
