/**
 * The arithmetic of benchmark figures: percentiles, medians, rates and the human forms of bytes,
 * durations and ratios. Pure functions; none mutates its input.
 */

/** The p-th percentile (0..100) of values by nearest rank; NaN for an empty list. */
export function percentile(values: ArrayLike<number>, p: number): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  const sorted = Float64Array.from(values as ArrayLike<number>).sort();
  const rank = Math.ceil((Math.min(Math.max(p, 0), 100) / 100) * n);
  return sorted[Math.min(Math.max(rank - 1, 0), n - 1)] as number;
}

/** The median (mean of the two middle values for an even count); NaN for an empty list. */
export function median(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  const sorted = Float64Array.from(values as ArrayLike<number>).sort();
  const mid = n >> 1;
  return n % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** value / baseline, or NaN when the baseline is not a positive number. */
export function ratio(value: number, baseline: number): number {
  return baseline > 0 && Number.isFinite(baseline) ? value / baseline : Number.NaN;
}

/** A ratio as `0.51x` (two significant decimals, more below 0.1); `n/a` when not finite. */
export function formatRatio(r: number): string {
  if (!Number.isFinite(r)) return 'n/a';
  if (r !== 0 && Math.abs(r) < 0.1) return `${r.toPrecision(2)}x`;
  return `${r.toFixed(2)}x`;
}

/** A byte count as B, KiB, MiB or GiB with one decimal. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return 'n/a';
  const sign = bytes < 0 ? '-' : '';
  let v = Math.abs(bytes);
  for (const unit of ['B', 'KiB', 'MiB']) {
    if (v < 1024) return `${sign}${unit === 'B' ? v.toFixed(0) : v.toFixed(1)} ${unit}`;
    v /= 1024;
  }
  return `${sign}${v.toFixed(2)} GiB`;
}

/** A duration in milliseconds as `840 µs`, `12.3 ms` or `4.20 s`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  if (ms < 1) return `${Math.round(ms * 1000)} µs`;
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(2) : ms.toFixed(1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** A rate per second, rounded to a whole number with thousands separators. */
export function formatRate(perSecond: number): string {
  if (!Number.isFinite(perSecond)) return 'n/a';
  return Math.round(perSecond).toLocaleString('en-US');
}
