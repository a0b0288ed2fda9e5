/**
 * The soak's disruption plan: when each API server restart, etcd compaction and etcd member
 * restart happens, scaled to the run's length. The first and last tenth of a run are quiet (a
 * baseline and a settled end); disruptions of different kinds never start within a minute's
 * fraction of each other, so each one's effects can be told apart.
 */
import type { DisruptionKind } from './stats.js';

/** One planned disruption, in milliseconds since the soak started. */
export interface PlannedDisruption {
  readonly at: number;
  readonly kind: DisruptionKind;
}

/** How many of each kind a run of durationMs gets: at least one each, more as the run grows. */
export function disruptionCounts(durationMs: number): Record<DisruptionKind, number> {
  const minutes = durationMs / 60_000;
  return {
    'apiserver-restart': Math.max(2, Math.round(minutes / 10)),
    'etcd-compaction': Math.max(2, Math.round(minutes / 6)),
    'etcd-member-restart': Math.max(1, Math.round(minutes / 30)),
  };
}

/**
 * The plan for a run of durationMs: each kind spread evenly over the middle 80% of the run, the
 * kinds offset from each other by a third of their spacing so they interleave. Sorted by time.
 */
export function planDisruptions(durationMs: number): PlannedDisruption[] {
  const counts = disruptionCounts(durationMs);
  const from = durationMs * 0.1;
  const span = durationMs * 0.8;
  const offsets: Record<DisruptionKind, number> = { 'apiserver-restart': 0, 'etcd-compaction': 1 / 3, 'etcd-member-restart': 2 / 3 };
  const plan: PlannedDisruption[] = [];
  for (const kind of Object.keys(counts) as DisruptionKind[]) {
    const n = counts[kind];
    const step = span / n;
    for (let i = 0; i < n; i++) plan.push({ kind, at: Math.round(from + step * (i + offsets[kind]) + step / 6) });
  }
  return plan.sort((a, b) => a.at - b.at);
}

/** A duration like 60m, 90s, 1h or 1h30m in milliseconds; throws on anything else. */
export function parseDuration(text: string): number {
  const re = /(\d+(?:\.\d+)?)(h|m|s)/gy;
  let ms = 0;
  let matched = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    ms += Number(m[1]) * { h: 3_600_000, m: 60_000, s: 1000 }[m[2] as 'h' | 'm' | 's'];
    matched = re.lastIndex;
  }
  if (matched === 0 || matched !== text.length || ms <= 0) throw new Error(`SOAK_DURATION ${JSON.stringify(text)} is not a duration such as 60m, 90s or 1h30m`);
  return ms;
}
