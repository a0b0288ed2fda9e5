/**
 * The soak report's arithmetic: latency percentiles of one tick, whether a moment falls in a
 * disruption window, and the split of error counts between disrupted and quiet time. Pure
 * functions; none mutates its input.
 */
import { percentile } from '../../bench/stats.js';

/** What was disrupted. */
export type DisruptionKind = 'apiserver-restart' | 'etcd-compaction' | 'etcd-member-restart';

/** One disruption as it happened, in milliseconds since the soak started. */
export interface Disruption {
  readonly kind: DisruptionKind;
  /** Which server or member. */
  readonly target: string;
  readonly start: number;
  /** When the disrupted part served again (start for an instant one such as a compaction). */
  readonly end: number;
}

/** How long after a disruption's end its effects still count as the disruption's. */
export const disruptionGraceMs = 15_000;

/** p50, p90 and p99 of some latencies (ms) and how many there were; NaN when there were none. */
export interface LatencySummary {
  readonly n: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
}

/** The percentiles of latencies (ms) by nearest rank. */
export function summarizeLatencies(latencies: ArrayLike<number>): LatencySummary {
  return { n: latencies.length, p50: percentile(latencies, 50), p90: percentile(latencies, 90), p99: percentile(latencies, 99) };
}

/** The disruption whose window [start, end + grace] holds at, or undefined when none does. */
export function disruptionAt(at: number, disruptions: readonly Disruption[], graceMs = disruptionGraceMs): Disruption | undefined {
  return disruptions.find((d) => at >= d.start && at <= d.end + graceMs);
}

/** A count split into the part inside disruption windows and the part outside them. */
export interface WindowSplit {
  readonly total: number;
  readonly during: number;
  readonly outside: number;
}

/** Splits events (each a moment and a count) by whether the moment falls in a disruption window. */
export function splitByWindows(events: readonly { readonly at: number; readonly count: number }[], disruptions: readonly Disruption[], graceMs = disruptionGraceMs): WindowSplit {
  let during = 0;
  let outside = 0;
  for (const e of events) {
    if (disruptionAt(e.at, disruptions, graceMs)) during += e.count;
    else outside += e.count;
  }
  return { total: during + outside, during, outside };
}

/** The least-squares slope of ys over xs (units of y per unit of x); NaN with fewer than two points. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return Number.NaN;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i] as number;
    sy += ys[i] as number;
  }
  const mx = sx / n;
  const my = sy / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - mx;
    num += dx * ((ys[i] as number) - my);
    den += dx * dx;
  }
  return den === 0 ? Number.NaN : num / den;
}
