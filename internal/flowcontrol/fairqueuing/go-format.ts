/** Go's formats of times, durations and kube's seat-seconds, as the APF dumps print them. */

/** time.Time.UTC().Format(time.RFC3339Nano) of epoch milliseconds; 0 is Go's zero time. */
export function rfc3339Nano(epochMs: number): string {
  if (epochMs === 0) return '0001-01-01T00:00:00Z';
  const iso = new Date(epochMs).toISOString();
  const [base, frac = ''] = iso.slice(0, -1).split('.');
  const trimmed = frac.replace(/0+$/, '');
  return `${base}${trimmed ? `.${trimmed}` : ''}Z`;
}

const trimFraction = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);

/** time.Duration.String() of a duration in milliseconds. */
export function goDuration(ms: number): string {
  const ns = Math.round(ms * 1e6);
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  const a = Math.abs(ns);
  if (a < 1e3) return `${sign}${a}ns`;
  if (a < 1e6) return `${sign}${trimFraction((a / 1e3).toFixed(3))}µs`;
  if (a < 1e9) return `${sign}${trimFraction((a / 1e6).toFixed(6))}ms`;
  const h = Math.floor(a / 3.6e12);
  const m = Math.floor((a % 3.6e12) / 6e10);
  const s = trimFraction(((a % 6e10) / 1e9).toFixed(9));
  return `${sign}${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s}s`;
}

/** kube's SeatSeconds.String(): fixed point with 8 decimals and the unit "ss". */
export function seatSeconds(ss: number): string {
  const n = Math.round(ss * 1e8);
  const sign = n < 0 ? '-' : '';
  const a = Math.abs(n);
  return `${sign}${Math.floor(a / 1e8)}.${String(a % 1e8).padStart(8, '0')}ss`;
}
