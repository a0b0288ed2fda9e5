/**
 * HTTP/2 throughput with node:http2 client sessions, the HTTP/2 counterpart of cannon.ts: a fixed
 * number of requests in flight (streams) spread over a few sessions (client-go keeps one per
 * server), each worker sending its next request when its answer has been read. Counts only 2xx
 * answers as done work and keeps the status codes of the rest.
 */
import { connect, type ClientHttp2Session } from 'node:http2';
import type { CannonLoad, Throughput } from './cannon.js';

/** An HTTP/2 load: cannon.ts's, with connections read as streams in flight. */
export interface H2Load extends CannonLoad {
  /** Sessions (TCP connections) the streams share; 1 unless given. */
  readonly sessions?: number;
}

function open(load: H2Load): Promise<ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const s = connect(`https://127.0.0.1:${load.port}`, {
      ca: load.ca,
      servername: 'localhost',
      ...(load.clientCert ? { cert: load.clientCert.cert, key: load.clientCert.key } : {}),
    });
    s.once('remoteSettings', () => resolve(s));
    s.once('error', reject);
  });
}

function once(sessions: readonly ClientHttp2Session[], load: H2Load, seconds: number): Promise<{ latencies: number[]; codes: Record<string, number>; ok: number; failed: number; seconds: number }> {
  const body = load.body === undefined ? undefined : Buffer.from(load.body);
  const headers = {
    ':method': load.method ?? 'GET',
    ':path': load.path,
    accept: 'application/json',
    ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
  };
  const latencies: number[] = [];
  const codes: Record<string, number> = {};
  let ok = 0;
  let failed = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  const request = (s: ClientHttp2Session): Promise<void> =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const stream = s.request(headers);
      let status = 0;
      stream.on('response', (h) => (status = Number(h[':status'])));
      stream.on('data', () => undefined);
      stream.on('end', () => {
        latencies.push(performance.now() - t0);
        codes[status] = (codes[status] ?? 0) + 1;
        if (status >= 200 && status < 300) ok++;
        else failed++;
        resolve();
      });
      stream.on('error', () => {
        failed++;
        resolve();
      });
      stream.end(body);
    });
  const worker = async (s: ClientHttp2Session): Promise<void> => {
    while (performance.now() < end) await request(s);
  };
  return Promise.all(Array.from({ length: load.connections }, (_, i) => worker(sessions[i % sessions.length] as ClientHttp2Session))).then(() => ({
    latencies,
    codes,
    ok,
    failed,
    seconds: (performance.now() - started) / 1000,
  }));
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number);
}

/** Runs the warm-up, then the measured run, over fresh sessions, and returns the measured figures. */
export async function h2Throughput(load: H2Load): Promise<Throughput> {
  const sessions = await Promise.all(Array.from({ length: load.sessions ?? 1 }, () => open(load)));
  try {
    if (load.warmupSeconds > 0) await once(sessions, load, load.warmupSeconds);
    const r = await once(sessions, load, load.seconds);
    const sorted = r.latencies.sort((a, b) => a - b);
    return {
      perSecond: r.ok / r.seconds,
      ok: r.ok,
      failed: r.failed,
      statusCodes: r.codes,
      latencyP50Ms: percentile(sorted, 0.5),
      latencyP99Ms: percentile(sorted, 0.99),
      seconds: r.seconds,
    };
  } finally {
    for (const s of sessions) s.close();
  }
}
