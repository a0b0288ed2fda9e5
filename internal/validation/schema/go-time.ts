/**
 * Go's time.Parse for the two layouts metav1 uses (Time: RFC 3339; MicroTime: RFC 3339 with exactly
 * six fractional digits), reduced to what it answers: nothing for a valid value, else the exact
 * text of the *time.ParseError (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x"
 * as "2006"`, `parsing time "...": month out of range`, ...). It follows time/format.go's general
 * parser chunk by chunk, over the value's UTF-8 bytes as Go does.
 */

/** The layout of metav1.Time (time.RFC3339). */
export const rfc3339 = '2006-01-02T15:04:05Z07:00';
/** The layout of metav1.MicroTime (metav1.RFC3339Micro). */
export const rfc3339Micro = '2006-01-02T15:04:05.000000Z07:00';

type Std = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'frac6' | 'tz';

interface Chunk {
  readonly prefix: string;
  readonly std: Std;
  /** The layout text of the element, as ParseError.LayoutElem shows it. */
  readonly text: string;
}

const rfc3339Chunks: readonly Chunk[] = [
  { prefix: '', std: 'year', text: '2006' },
  { prefix: '-', std: 'month', text: '01' },
  { prefix: '-', std: 'day', text: '02' },
  { prefix: 'T', std: 'hour', text: '15' },
  { prefix: ':', std: 'minute', text: '04' },
  { prefix: ':', std: 'second', text: '05' },
  { prefix: '', std: 'tz', text: 'Z07:00' },
];

const rfc3339MicroChunks: readonly Chunk[] = [
  ...rfc3339Chunks.slice(0, 6),
  { prefix: '', std: 'frac6', text: '.000000' },
  { prefix: '', std: 'tz', text: 'Z07:00' },
];

const encoder = new TextEncoder();

function isDigit(b: Uint8Array, i: number): boolean {
  const c = b[i];
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

/** time.getnum: one or two digits (exactly two when fixed). */
function getnum(b: Uint8Array, fixed: boolean): { n: number; rest: Uint8Array } | undefined {
  if (!isDigit(b, 0)) return undefined;
  if (!isDigit(b, 1)) {
    if (fixed) return undefined;
    return { n: (b[0] as number) - 0x30, rest: b.subarray(1) };
  }
  return { n: ((b[0] as number) - 0x30) * 10 + ((b[1] as number) - 0x30), rest: b.subarray(2) };
}

/** time.atoi on a short byte string: optional sign, then digits only. */
function atoi(b: Uint8Array): number | undefined {
  let i = 0;
  let neg = false;
  if (b[0] === 0x2d || b[0] === 0x2b) {
    neg = b[0] === 0x2d;
    i = 1;
  }
  if (i >= b.length) return undefined;
  let x = 0;
  for (; i < b.length; i++) {
    if (!isDigit(b, i)) return undefined;
    x = x * 10 + ((b[i] as number) - 0x30);
  }
  return neg ? -x : x;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** time's own quote(): ASCII printable kept, `"` and `\` escaped, anything else as \x bytes. */
export function goTimeQuote(bytes: Uint8Array): string {
  let out = '"';
  let i = 0;
  while (i < bytes.length) {
    const c = bytes[i] as number;
    if (c >= 0x20 && c < 0x80) {
      if (c === 0x22 || c === 0x5c) out += '\\';
      out += String.fromCharCode(c);
      i++;
      continue;
    }
    // A rune of width w (1 for control bytes and invalid UTF-8) is written byte by byte.
    let width = 1;
    if (c >= 0xc0) {
      const w = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
      let ok = i + w <= bytes.length;
      for (let j = 1; ok && j < w; j++) ok = ((bytes[i + j] as number) & 0xc0) === 0x80;
      if (ok) width = w;
    }
    for (let j = 0; j < width; j++) out += `\\x${(bytes[i + j] as number).toString(16).padStart(2, '0')}`;
    i += width;
  }
  return `${out}"`;
}

function cannotParse(value: Uint8Array, layout: string, valueElem: Uint8Array, layoutElem: string): string {
  return `parsing time ${goTimeQuote(value)} as ${goTimeQuote(encoder.encode(layout))}: cannot parse ${goTimeQuote(valueElem)} as ${goTimeQuote(encoder.encode(layoutElem))}`;
}

function withMessage(value: Uint8Array, message: string): string {
  return `parsing time ${goTimeQuote(value)}${message}`;
}

/** time.skip for the short literal prefixes of these layouts (no spaces in them). */
function skip(value: Uint8Array, prefix: string): Uint8Array | undefined {
  let v = value;
  for (let i = 0; i < prefix.length; i++) {
    if (v.length === 0 || v[0] !== prefix.charCodeAt(i)) return undefined;
    v = v.subarray(1);
  }
  return v;
}

// What the server itself writes (UTC, "Z"), the value nearly every write carries: checked whole.
const canonicalTime = /^(\d{4})-(\d\d)-(\d\d)T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/;
const canonicalMicroTime = /^(\d{4})-(\d\d)-(\d\d)T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{6}Z$/;

/** Whether value is a canonical UTC time of layout whose date exists (time.Parse accepts it). */
function canonicalUtc(value: string, layout: string): boolean {
  const m = (layout === rfc3339 ? canonicalTime : canonicalMicroTime).exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return day <= days;
}

/**
 * The error time.Parse(layout, value) returns, or undefined when it parses. Only the layouts
 * rfc3339 and rfc3339Micro are supported.
 */
export function timeParseError(value: string, layout: typeof rfc3339 | typeof rfc3339Micro): string | undefined {
  if (canonicalUtc(value, layout)) return undefined;
  const all = encoder.encode(value);
  const chunks = layout === rfc3339 ? rfc3339Chunks : rfc3339MicroChunks;
  let v: Uint8Array = all;
  let year = 0;
  let month = -1;
  let day = -1;
  for (let ci = 0; ci < chunks.length; ci++) {
    const chunk = chunks[ci] as Chunk;
    const skipped = skip(v, chunk.prefix);
    if (skipped === undefined) return cannotParse(all, layout, v, chunk.prefix);
    v = skipped;
    const hold = v;
    let bad = false;
    let rangeErr = '';
    switch (chunk.std) {
      case 'year': {
        if (v.length < 4 || !isDigit(v, 0)) {
          bad = true;
          break;
        }
        const y = atoi(v.subarray(0, 4));
        v = v.subarray(4);
        if (y === undefined) bad = true;
        else year = y;
        break;
      }
      case 'month': {
        const r = getnum(v, true);
        if (r === undefined) {
          bad = true;
          break;
        }
        month = r.n;
        v = r.rest;
        if (month <= 0 || month > 12) rangeErr = 'month';
        break;
      }
      case 'day': {
        const r = getnum(v, true);
        if (r === undefined) {
          bad = true;
          break;
        }
        day = r.n;
        v = r.rest;
        break;
      }
      case 'hour': {
        const r = getnum(v, false);
        if (r === undefined) {
          bad = true;
          break;
        }
        v = r.rest;
        if (r.n >= 24) rangeErr = 'hour';
        break;
      }
      case 'minute': {
        const r = getnum(v, true);
        if (r === undefined) {
          bad = true;
          break;
        }
        v = r.rest;
        if (r.n >= 60) rangeErr = 'minute';
        break;
      }
      case 'second': {
        const r = getnum(v, true);
        if (r === undefined) {
          bad = true;
          break;
        }
        v = r.rest;
        if (r.n >= 60) {
          rangeErr = 'second';
          break;
        }
        // A fraction the layout does not spell out is accepted and skipped (RFC3339 only).
        if (v.length >= 2 && (v[0] === 0x2e || v[0] === 0x2c) && isDigit(v, 1) && chunks[ci + 1]?.std !== 'frac6') {
          let n = 2;
          while (n < v.length && isDigit(v, n)) n++;
          v = v.subarray(n);
        }
        break;
      }
      case 'frac6': {
        if (v.length < 7 || !(v[0] === 0x2e || v[0] === 0x2c)) {
          bad = true;
          break;
        }
        const ns = atoi(v.subarray(1, 7));
        if (ns === undefined) bad = true;
        else if (ns < 0) rangeErr = 'fractional second';
        v = v.subarray(7);
        break;
      }
      case 'tz': {
        if (v.length >= 1 && v[0] === 0x5a) {
          v = v.subarray(1);
          break;
        }
        if (v.length < 6 || v[3] !== 0x3a) {
          bad = true;
          break;
        }
        const hh = getnum(v.subarray(1, 3), true);
        const mm = hh === undefined ? undefined : getnum(v.subarray(4, 6), true);
        const sign = v[0];
        v = v.subarray(6);
        // Go checks the ranges even after a bad digit (its getnum yields 0 then), and they win.
        if (hh === undefined || mm === undefined) bad = true;
        if (hh !== undefined && hh.n > 24) rangeErr = 'time zone offset hour';
        if (mm !== undefined && mm.n > 60) rangeErr = 'time zone offset minute';
        if (sign !== 0x2b && sign !== 0x2d) bad = true;
        break;
      }
    }
    if (rangeErr !== '') return withMessage(all, `: ${rangeErr} out of range`);
    if (bad) return cannotParse(all, layout, hold, chunk.text);
  }
  if (v.length !== 0) return withMessage(all, `: extra text: ${goTimeQuote(v)}`);
  if (day < 1 || day > daysIn(month, year)) return withMessage(all, ': day out of range');
  return undefined;
}
