/**
 * Audit timestamps: kube's metav1.MicroTime, written in UTC as RFC 3339 with exactly six fraction
 * digits ("2025-01-02T03:04:05.123456Z"). Times are kept as epoch microseconds taken from the
 * high-resolution clock, so that the digits below the millisecond are real.
 */

/** The current time in epoch microseconds. */
export function nowMicros(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

// The date and time of day change once a second: requests in the same second share the prefix.
let cachedSecond = -1;
let cachedPrefix = '';

/** Formats epoch microseconds as kube's MicroTime JSON ("YYYY-MM-DDTHH:MM:SS.ffffffZ"). */
export function formatMicroTime(micros: number): string {
  const second = Math.floor(micros / 1_000_000);
  if (second !== cachedSecond) {
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, 19);
    cachedSecond = second;
  }
  return `${cachedPrefix}.${String(micros - second * 1_000_000).padStart(6, '0')}Z`;
}

/** Parses a MicroTime ("...T...SS.ffffffZ") back to epoch microseconds; NaN when it is not one. */
export function parseMicroTime(microTime: string): number {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(microTime);
  if (!m) return Number.NaN;
  const seconds = Date.parse(`${m[1]}Z`);
  return seconds * 1000 + Number(((m[2] ?? '') + '000000').slice(0, 6));
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/**
 * A MicroTime as Go's time.RFC3339Nano prints the server's local time (the legacy log format):
 * the fraction loses its trailing zeros (and its dot when nothing is left), and the zone is "Z"
 * for UTC or the local offset.
 */
export function rfc3339NanoLocal(microTime: string): string {
  const micros = parseMicroTime(microTime);
  if (Number.isNaN(micros)) return microTime;
  const ms = Math.floor(micros / 1000);
  const d = new Date(ms);
  const offsetMinutes = -d.getTimezoneOffset();
  const fraction = String(micros - Math.floor(micros / 1_000_000) * 1_000_000).padStart(6, '0').replace(/0+$/, '');
  const zone =
    offsetMinutes === 0 ? 'Z' : `${offsetMinutes > 0 ? '+' : '-'}${pad2(Math.floor(Math.abs(offsetMinutes) / 60))}:${pad2(Math.abs(offsetMinutes) % 60)}`;
  const date = `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}T${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
  return `${date}${fraction ? `.${fraction}` : ''}${zone}`;
}
