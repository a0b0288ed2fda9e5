/**
 * The text forms of kube's time types, exactly as Go prints and parses them: meta/v1 Time
 * (RFC 3339, seconds), MicroTime (RFC 3339 with six fraction digits) and Duration (Go's
 * time.Duration string, e.g. "1m0s", "1.5s", "300ms").
 */
import { ProtobufError } from './errors.js';

/** Unix seconds of Go's zero time.Time (0001-01-01T00:00:00Z), which kube writes as JSON null. */
export const GO_ZERO_TIME_SECONDS = -62135596800;

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Formats Unix seconds (and nanoseconds) as RFC 3339 UTC; `micro` adds six fraction digits, truncated as Go does. */
export function formatRfc3339(seconds: number, nanos: number, micro: boolean): string {
  const d = new Date(seconds * 1000);
  if (Number.isNaN(d.getTime())) throw new ProtobufError('InvalidValue', `time ${seconds}s out of range`);
  const year = d.getUTCFullYear();
  if (year < 0 || year > 9999) throw new ProtobufError('InvalidValue', `time ${seconds}s: year ${year} outside [0,9999]`);
  const base = `${pad(year, 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  return micro ? `${base}.${pad(Math.floor(nanos / 1000), 6)}Z` : `${base}Z`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp (any offset, optional fraction) into Unix seconds and nanoseconds, as Go's time.Parse(RFC3339) does. */
export function parseRfc3339(text: string, path: string): { seconds: number; nanos: number } {
  const m = RFC3339.exec(text);
  if (!m) throw new ProtobufError('InvalidValue', `time ${JSON.stringify(text)} is not RFC 3339`, path);
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const date = new Date(0);
  date.setUTCFullYear(Number(y), month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  if (month < 1 || month > 12 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    throw new ProtobufError('InvalidValue', `time ${JSON.stringify(text)} is out of range`, path);
  }
  let seconds = Math.floor(date.getTime() / 1000);
  if (zone !== 'Z') {
    const sign = zone!.startsWith('-') ? -1 : 1;
    const offset = Number(zone!.slice(1, 3)) * 3600 + Number(zone!.slice(4, 6)) * 60;
    seconds -= sign * offset;
  }
  const nanos = frac ? Number(frac.padEnd(9, '0')) : 0;
  return { seconds, nanos };
}

const NS = { ns: 1n, us: 1000n, 'µs': 1000n, 'μs': 1000n, ms: 1000000n, s: 1000000000n, m: 60000000000n, h: 3600000000000n } as const;
const INT64_MAX = 2n ** 63n - 1n;

/** Formats nanoseconds as Go's time.Duration.String() does ("0s", "1.5µs", "300ms", "1h0m0s"). */
export function formatGoDuration(nanos: bigint): string {
  const neg = nanos < 0n;
  let u = neg ? -nanos : nanos;
  let out: string;
  const frac = (v: bigint, prec: number): [string, bigint] => {
    let digits = '';
    let print = false;
    for (let i = 0; i < prec; i++) {
      const digit = v % 10n;
      print ||= digit !== 0n;
      if (print) digits = String(digit) + digits;
      v /= 10n;
    }
    return [print ? `.${digits}` : '', v];
  };
  if (u < NS.s) {
    if (u === 0n) return '0s';
    let unit: string;
    let prec: number;
    if (u < NS.us) [unit, prec] = ['ns', 0];
    else if (u < NS.ms) [unit, prec] = ['µs', 3];
    else [unit, prec] = ['ms', 6];
    const [f, whole] = frac(u, prec);
    out = `${whole}${f}${unit}`;
  } else {
    const [f, secs] = frac(u, 9);
    u = secs;
    out = `${u % 60n}${f}s`;
    u /= 60n;
    if (u > 0n) {
      out = `${u % 60n}m${out}`;
      u /= 60n;
      if (u > 0n) out = `${u}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}

/** Parses a Go duration string ("1h2m3.5s", "-300ms", "0") into nanoseconds, as Go's time.ParseDuration does. */
export function parseGoDuration(text: string, path: string): bigint {
  const bad = () => new ProtobufError('InvalidValue', `time: invalid duration ${JSON.stringify(text)}`, path);
  let s = text;
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw bad();
  let total = 0n;
  const part = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/;
  while (s !== '') {
    const m = part.exec(s);
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) throw bad();
    const unit = NS[m[3] as keyof typeof NS];
    let value = BigInt(m[1] || '0') * unit;
    const fraction = m[2] ?? '';
    if (fraction) value += (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length);
    total += value;
    if (total > INT64_MAX + (neg ? 1n : 0n)) throw new ProtobufError('InvalidValue', `time: invalid duration ${JSON.stringify(text)} (overflow)`, path);
    s = s.slice(m[0].length);
  }
  return neg ? -total : total;
}
