/**
 * Ages and durations as kube prints them: k8s.io/apimachinery's duration.HumanDuration (two or
 * three significant figures, "5m30s", "3d4h", "2y10d") and ShortHumanDuration (one unit), and
 * the printers' translateTimestampSince, which answers "<unknown>" for a missing timestamp.
 * Durations are in milliseconds; Go truncates toward zero at each unit, and so does this file.
 */

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Milliseconds since the epoch of an RFC 3339 timestamp (metav1.Time, or metav1.MicroTime with
 * its six fractional digits, kept as a fraction of a millisecond), or undefined when v is null,
 * missing or not a timestamp: the zero time, which kube prints as "<unknown>".
 */
export function parseTimestamp(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const m = rfc3339.exec(v);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m as unknown as string[];
  // Only Go's zero time (year 1) has a year below 100 in practice; Date.UTC would misread it as 19xx.
  if (Number(y) < 100) return undefined;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (frac) ms += Number(`0${frac}`) * 1000;
  if (zone && zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    ms -= sign * (Number(zone.slice(1, 3)) * hour + Number(zone.slice(4, 6)) * minute);
  }
  return ms;
}

/** duration.HumanDuration of a duration in milliseconds. Pure. */
export function humanDuration(ms: number): string {
  // Up to two seconds in the future counts as now: clocks of machines disagree a little.
  const seconds = Math.trunc(ms / second);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 2 * 60) return `${seconds}s`;
  const minutes = Math.trunc(ms / minute);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 3 * 60) return `${minutes}m`;
  const hours = Math.trunc(ms / hour);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const dy = days % 365;
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${years}y`;
}

/** duration.ShortHumanDuration of a duration in milliseconds: one unit only. Pure. */
export function shortHumanDuration(ms: number): string {
  const seconds = Math.trunc(ms / second);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.trunc(ms / minute);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.trunc(ms / hour);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${Math.trunc(hours / 24)}d`;
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** translateTimestampSince: the human age of timestamp at now, or "<unknown>" when it is missing. */
export function translateTimestampSince(timestamp: unknown, now: Date): string {
  const t = parseTimestamp(timestamp);
  if (t === undefined) return '<unknown>';
  return humanDuration(now.getTime() - t);
}

/** The Age cell: translateTimestampSince of obj's metadata.creationTimestamp. */
export function creationAge(obj: Record<string, unknown>, now: Date): string {
  const metadata = obj.metadata;
  const created = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>).creationTimestamp : undefined;
  return translateTimestampSince(created, now);
}
