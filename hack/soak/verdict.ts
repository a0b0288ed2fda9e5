/**
 * The soak's verdict: the defect-class events of a finished run. Besides what the load and the
 * informers recorded as it happened, a 5xx or an unanswered request outside every disruption
 * window is a defect, and so is memory past the stated bounds.
 */
import type { Defect } from './recorder.js';
import type { ErrorRecord, Sample } from './sampler.js';
import { disruptionAt, type Disruption } from './stats.js';

/** The memory bounds a run must keep, in bytes. */
export interface MemoryBounds {
  readonly serverRss: number;
  readonly serverHeap: number;
  readonly etcdRss: number;
}

const mib = 1024 * 1024;

/** The bounds from SOAK_SERVER_RSS_MIB, SOAK_SERVER_HEAP_MIB and SOAK_ETCD_RSS_MIB (defaults 1024, 512, 1024). */
export function memoryBounds(env: NodeJS.ProcessEnv = process.env): MemoryBounds {
  const n = (v: string | undefined, d: number): number => (v && Number(v) > 0 ? Number(v) : d) * mib;
  return { serverRss: n(env.SOAK_SERVER_RSS_MIB, 1024), serverHeap: n(env.SOAK_SERVER_HEAP_MIB, 512), etcdRss: n(env.SOAK_ETCD_RSS_MIB, 1024) };
}

/** The defects found in the samples and errors after the run: at most a few lines for each cause. */
export function judge(samples: readonly Sample[], errors: readonly ErrorRecord[], disruptions: readonly Disruption[], bounds: MemoryBounds): Defect[] {
  const out: Defect[] = [];
  const quiet = errors.filter((e) => (e.code === 0 || e.code >= 500) && !disruptionAt(e.at, disruptions));
  const byKey = new Map<string, ErrorRecord[]>();
  for (const e of quiet) byKey.set(`${e.kind} ${e.code}`, [...(byKey.get(`${e.kind} ${e.code}`) ?? []), e]);
  for (const [key, list] of byKey) {
    const first = list[0] as ErrorRecord;
    out.push({ at: first.at, what: `${list.length} × ${key.replace(/ 0$/, ' (no answer)')} outside any disruption window (first at ${(first.at / 1000).toFixed(1)}s)` });
  }
  const over = (what: string, bound: number, pick: (s: Sample) => Array<{ name: string; v: number }>): void => {
    for (const s of samples) {
      const hit = pick(s).find((p) => p.v > bound);
      if (hit) {
        out.push({ at: s.t, what: `${hit.name} ${what} ${(hit.v / mib).toFixed(0)} MiB passed the bound of ${(bound / mib).toFixed(0)} MiB at ${(s.t / 1000).toFixed(0)}s` });
        return;
      }
    }
  };
  over('RSS', bounds.serverRss, (s) => s.servers.map((p) => ({ name: p.name, v: p.rss })));
  over('heap', bounds.serverHeap, (s) => s.servers.map((p) => ({ name: p.name, v: p.heapUsed ?? Number.NaN })));
  over('RSS', bounds.etcdRss, (s) => s.etcd.map((p) => ({ name: p.name, v: p.rss })));
  return out;
}
