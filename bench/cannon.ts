/**
 * HTTPS throughput with autocannon: a warm-up run, then a measured run, each with a fixed number
 * of keep-alive connections and one request in flight per connection. Counts only 2xx answers as
 * done work and keeps the status codes of the rest, so that errors never pass as throughput.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface CannonResult {
  start: Date;
  finish: Date;
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
  latency: { p50: number; p99: number; average: number };
}
type Autocannon = (opts: Record<string, unknown>, cb: (err: Error | null, result: CannonResult) => void) => unknown;
const autocannon = require('autocannon') as Autocannon;

/** What a throughput run measured. */
export interface Throughput {
  /** 2xx answers per second. */
  readonly perSecond: number;
  readonly ok: number;
  readonly failed: number;
  readonly statusCodes: Record<string, number>;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly seconds: number;
}

/** One load to apply. */
export interface CannonLoad {
  readonly port: number;
  readonly ca: string;
  readonly path: string;
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  readonly connections: number;
  readonly warmupSeconds: number;
  readonly seconds: number;
  /** A client certificate and key (PEM) every connection presents. */
  readonly clientCert?: { readonly cert: string; readonly key: string };
}

function once(load: CannonLoad, seconds: number): Promise<CannonResult> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `https://127.0.0.1:${load.port}${load.path}`,
        method: load.method ?? 'GET',
        headers: { accept: 'application/json', ...(load.body ? { 'content-type': 'application/json' } : {}) },
        ...(load.body ? { body: load.body } : {}),
        connections: load.connections,
        pipelining: 1,
        duration: seconds,
        servername: 'localhost',
        tlsOptions: { ca: load.ca, ...(load.clientCert ? { cert: load.clientCert.cert, key: load.clientCert.key } : {}) },
        timeout: 30,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  });
}

/** Runs the warm-up, then the measured run, and returns the measured figures. */
export async function throughput(load: CannonLoad): Promise<Throughput> {
  if (load.warmupSeconds > 0) await once(load, load.warmupSeconds);
  const r = await once(load, load.seconds);
  const seconds = (r.finish.getTime() - r.start.getTime()) / 1000;
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = s.count;
  return {
    perSecond: r['2xx'] / seconds,
    ok: r['2xx'],
    failed: r.non2xx + r.errors + r.timeouts,
    statusCodes,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    seconds,
  };
}
