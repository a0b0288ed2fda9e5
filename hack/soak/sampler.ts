/**
 * The soak's sampler: every tick it drains the recorder into one sample (requests by verb and
 * code, errors by kind and code, latency percentiles per request kind, watch events and relists)
 * and reads the memory of every API server (RSS from /proc, V8 heap from its /metrics) and etcd
 * member (RSS). It also keeps every latency and every error of the run for the summary.
 */
import type { SoakClient } from './client.js';
import type { ControlPlane } from './control-plane.js';
import { residentBytes } from './etcd-ops.js';
import type { Recorder } from './recorder.js';
import { summarizeLatencies, type LatencySummary } from './stats.js';

/** One process's memory at a tick (NaN while it is down). */
export interface ProcessMemory {
  readonly name: string;
  readonly pid: number;
  readonly rss: number;
  /** V8 heap in use (API servers only). */
  readonly heapUsed?: number;
}

/** One tick. */
export interface Sample {
  /** Milliseconds since the soak started. */
  readonly t: number;
  /** Seconds the tick covered. */
  readonly seconds: number;
  /** "<verb> <code>" -> count. */
  readonly requests: Record<string, number>;
  /** "<kind> <code>" -> count, for every answer that is not 2xx (code 0: no answer). */
  readonly errors: Record<string, number>;
  readonly latency: Record<string, LatencySummary>;
  readonly watchEvents: number;
  readonly relists: number;
  readonly servers: ProcessMemory[];
  readonly etcd: ProcessMemory[];
}

/** One non-2xx answer, for attributing errors to disruption windows. */
export interface ErrorRecord {
  readonly at: number;
  readonly kind: string;
  readonly code: number;
}

const maxErrorRecords = 100_000;

/** Samples the run every tickMs until stopped. */
export class Sampler {
  readonly samples: Sample[] = [];
  readonly errors: ErrorRecord[] = [];
  /** Every latency (ms) of the run by request kind. */
  readonly latencies = new Map<string, number[]>();
  private timer: NodeJS.Timeout | undefined;
  private last = 0;
  private busy: Promise<void> = Promise.resolve();

  constructor(
    private readonly recorder: Recorder,
    private readonly plane: ControlPlane,
    private readonly client: SoakClient,
    private readonly tickMs: number,
  ) {}

  /** Starts ticking. */
  start(): void {
    this.last = this.recorder.now();
    this.timer = setInterval(() => {
      this.busy = this.busy.then(() => this.tick());
    }, this.tickMs);
  }

  /** Stops ticking after one last tick. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.busy;
    await this.tick();
  }

  /** Takes one sample now. */
  async tick(): Promise<void> {
    const drained = this.recorder.drain();
    const t = this.recorder.now();
    const requests: Record<string, number> = {};
    const errors: Record<string, number> = {};
    const byKind = new Map<string, number[]>();
    for (const r of drained.requests) {
      const vc = `${r.verb} ${r.code}`;
      requests[vc] = (requests[vc] ?? 0) + 1;
      if (r.code < 200 || r.code >= 300) {
        const kc = `${r.kind} ${r.code}`;
        errors[kc] = (errors[kc] ?? 0) + 1;
        if (this.errors.length < maxErrorRecords) this.errors.push({ at: r.at, kind: r.kind, code: r.code });
      }
      if (r.kind === 'watch' || r.code === 0) continue;
      for (const k of ['all', r.kind]) {
        const tick = byKind.get(k) ?? [];
        tick.push(r.ms);
        byKind.set(k, tick);
        const all = this.latencies.get(k) ?? [];
        all.push(r.ms);
        this.latencies.set(k, all);
      }
    }
    const latency: Record<string, LatencySummary> = {};
    for (const [k, v] of byKind) latency[k] = summarizeLatencies(v);
    const servers = await Promise.all(this.plane.servers.map(async (s, i) => ({ name: s.name, pid: s.pid, rss: await residentBytes(s.pid), heapUsed: await this.heapUsed(i, s.name) })));
    const etcd = await Promise.all(this.plane.etcd.members.map(async (m) => ({ name: `etcd-${m.name}`, pid: m.pid, rss: await residentBytes(m.pid) })));
    this.samples.push({ t, seconds: (t - this.last) / 1000, requests, errors, latency, watchEvents: drained.watchEvents, relists: drained.relists, servers, etcd });
    this.last = t;
  }

  private async heapUsed(i: number, name: string): Promise<number> {
    const res = await this.client.raw('GET', '/metrics', { prefer: i, timeoutMs: 5000 });
    if (res.status !== 200 || res.server !== name) return Number.NaN;
    const m = /^nodejs_heap_size_used_bytes(?:\{[^}]*\})? ([0-9.e+]+)$/m.exec(res.body);
    return m ? Number(m[1]) : Number.NaN;
  }
}
