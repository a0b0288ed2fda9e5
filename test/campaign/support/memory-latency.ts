/**
 * The well-behaved client of the memory campaign: while the abuse runs it keeps doing a cached GET
 * (resourceVersion=0, served from the watch cache) and a create, one after the other, and records
 * how long each took, so a test can bound the p99 that others see while the server is under attack.
 */
import { newClient } from '../../../bench/client.js';

/** What the probe saw over one window. */
export interface LatencyReport {
  readonly gets: number;
  readonly creates: number;
  readonly getP99Ms: number;
  readonly createP99Ms: number;
  /** Each request that did not succeed: what was sent and what came back. */
  readonly failures: readonly string[];
}

/** The p-th percentile (0..100) of values, 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** A probe running against a namespace that holds ConfigMap `probe` (created by the caller). */
export interface LatencyProbe {
  /** Starts a new window: the next report covers only what happens from now on. */
  reset(): void;
  /** The report of the current window. */
  report(): LatencyReport;
  /** Stops the loop after its request in flight. */
  stop(): Promise<void>;
}

/** Starts the probe loop; pauseMs between rounds keeps its own load small. */
export function startLatencyProbe(port: number, ca: string, namespace: string, pauseMs = 25): LatencyProbe {
  const client = newClient(port, ca, 2);
  let gets: number[] = [];
  let creates: number[] = [];
  let failures: string[] = [];
  let running = true;
  let n = 0;
  const base = `/api/v1/namespaces/${namespace}/configmaps`;
  const loop = (async () => {
    while (running) {
      let t = performance.now();
      const got = await client.call('GET', `${base}/probe?resourceVersion=0`).catch((e: Error) => ({ status: 0, body: Buffer.from(e.message) }));
      if (got.status === 200) gets.push(performance.now() - t);
      else failures.push(`GET ${base}/probe?resourceVersion=0 -> ${got.status} ${got.body.toString('utf8', 0, 200)}`);
      const name = `probe-${n++}`;
      t = performance.now();
      const made = await client.call('POST', base, { metadata: { name }, data: { n: String(n) } }).catch((e: Error) => ({ status: 0, body: Buffer.from(e.message) }));
      if (made.status === 201) creates.push(performance.now() - t);
      else failures.push(`POST ${base} ${name} -> ${made.status} ${made.body.toString('utf8', 0, 200)}`);
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  })();
  return {
    reset: () => {
      gets = [];
      creates = [];
      failures = [];
    },
    report: () => ({ gets: gets.length, creates: creates.length, getP99Ms: percentile(gets, 99), createP99Ms: percentile(creates, 99), failures: [...failures] }),
    stop: async () => {
      running = false;
      await loop;
      client.close();
    },
  };
}
