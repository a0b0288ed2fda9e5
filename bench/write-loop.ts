/**
 * A write load of any verb over HTTPS keep-alive: a fixed number of workers, each sending its next
 * request as soon as its previous answer is read, for a number of seconds. The workers own their
 * objects (the caller's next(worker) says what each sends), so PUTs can carry the resourceVersion
 * of the worker's last answer. Kept lean (no JSON parsing of answers unless asked) so that the
 * runner's CPU stays small next to the server's; only 2xx answers count as done work.
 */
import type { Agent } from 'node:https';
import { request } from 'node:https';
import type { Throughput } from './cannon.js';

/** One request a worker sends. */
export interface WriteRequest {
  readonly method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: Buffer;
  readonly contentType?: string;
}

/** How a load runs. */
export interface WriteLoad {
  readonly port: number;
  /** A keep-alive agent with at least workers sockets, kept across runs so connections stay warm. */
  readonly agent: Agent;
  readonly workers: number;
  readonly seconds: number;
  /** Worker w's next request, or undefined when it has nothing left to send. */
  readonly next: (worker: number) => WriteRequest | undefined;
  /** Called with each 2xx answer's body (only when given: reading it costs the runner). */
  readonly onAnswer?: (worker: number, body: Buffer) => void;
}

function send(port: number, agent: Agent, req: WriteRequest): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (req.body) {
      headers['content-type'] = req.contentType ?? 'application/json';
      headers['content-length'] = String(req.body.length);
    }
    const r = request({ host: '127.0.0.1', port, path: req.path, method: req.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    r.on('error', reject);
    r.end(req.body);
  });
}

/** Runs the load; the figures have the shape of autocannon's (latency percentiles left out: NaN). */
export async function writeLoop(load: WriteLoad): Promise<Throughput & { readonly firstErrors: readonly string[] }> {
  let ok = 0;
  let failed = 0;
  const statusCodes: Record<string, number> = {};
  const firstErrors: string[] = [];
  const started = performance.now();
  const stopAt = started + load.seconds * 1000;
  const worker = async (w: number): Promise<void> => {
    while (performance.now() < stopAt) {
      const req = load.next(w);
      if (!req) return;
      try {
        const r = await send(load.port, load.agent, req);
        statusCodes[r.status] = (statusCodes[r.status] ?? 0) + 1;
        if (r.status >= 200 && r.status < 300) {
          ok++;
          load.onAnswer?.(w, r.body);
        } else {
          failed++;
          if (firstErrors.length < 3) firstErrors.push(`${req.method} ${req.path}: HTTP ${r.status}: ${r.body.toString('utf8', 0, 200)}`);
        }
      } catch (err) {
        failed++;
        if (firstErrors.length < 3) firstErrors.push(`${req.method} ${req.path}: ${(err as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: load.workers }, (_, w) => worker(w)));
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: ok / seconds, ok, failed, statusCodes, latencyP50Ms: Number.NaN, latencyP99Ms: Number.NaN, seconds, firstErrors };
}
