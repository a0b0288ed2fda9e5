/**
 * The noisy tenant of test/support/tenant-flood.ts, in a worker thread of its own, so that
 * draining its lists never delays the measuring thread's event loop (which times the quiet
 * tenant). It runs `concurrency` list loops until told to stop, honouring Retry-After on 429 as
 * client-go does, then posts its counts.
 */
import { Agent, request } from 'node:https';
import { parentPort, workerData } from 'node:worker_threads';

/** What the worker is started with. */
export interface FloodWorkerData {
  readonly port: number;
  readonly ca: string;
  readonly path: string;
  readonly token: string;
  readonly concurrency: number;
}

/** What it posts when stopped. */
export interface FloodWorkerCounts {
  readonly ok: number;
  readonly rejected: number;
  readonly other: number;
  readonly retryAfter?: string;
}

const d = workerData as FloodWorkerData;
const agent = new Agent({ keepAlive: true, maxSockets: d.concurrency, ca: d.ca, servername: 'localhost' });
let running = true;
const counts: { ok: number; rejected: number; other: number; retryAfter?: string } = { ok: 0, rejected: 0, other: 0 };
const sleeps = new Set<NodeJS.Timeout>();

function list(): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port: d.port, path: d.path, headers: { accept: 'application/json', authorization: `Bearer ${d.token}` }, agent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }));
      res.on('error', () => resolve({ status: 0, retryAfter: undefined }));
    });
    req.on('error', () => resolve({ status: 0, retryAfter: undefined }));
    req.end();
  });
}

async function loop(): Promise<void> {
  while (running) {
    const a = await list();
    if (a.status === 200) counts.ok++;
    else if (a.status === 429) {
      counts.rejected++;
      counts.retryAfter = a.retryAfter;
      const seconds = Math.max(0, Math.min(Number(a.retryAfter ?? '1') || 1, 5));
      await new Promise<void>((r) => {
        const t = setTimeout(() => {
          sleeps.delete(t);
          r();
        }, seconds * 1000);
        sleeps.add(t);
      });
    } else counts.other++;
  }
}

const loops = Array.from({ length: d.concurrency }, () => loop());
parentPort?.postMessage({ type: 'started' });
parentPort?.on('message', (msg: { type: string }) => {
  if (msg.type !== 'stop') return;
  running = false;
  // Loops asleep after a 429 stop at once; those waiting for an answer finish it.
  for (const t of sleeps) clearTimeout(t);
  sleeps.clear();
  void Promise.race([Promise.all(loops), new Promise((r) => setTimeout(r, 2000))]).then(() => {
    agent.destroy();
    parentPort?.postMessage({ type: 'counts', counts });
    parentPort?.close();
  });
});
