/**
 * Go's text forms that klog's output is made of: strconv.Quote (how klog quotes a structured
 * message and string values) and time.Duration's String ("1.234567ms", "2m0s"), so that log lines
 * read exactly as kube-apiserver's.
 */

/** Printable ASCII other than `"` and `\`: such a string quotes as itself between quotes. */
const plainAscii = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
/** unicode.IsPrint outside ASCII: letters, marks, numbers, punctuation and symbols (no spaces). */
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

const shortEscapes: Record<number, string> = { 7: '\\a', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t', 11: '\\v' };

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/**
 * strconv.Quote: s between double quotes, with `"` and `\` escaped, control characters as \a \b
 * \f \n \r \t \v or \xHH, and other unprintable code points as \uHHHH or \UHHHHHHHH. A lone UTF-16
 * surrogate (which Go could not hold) becomes \ufffd. asciiOnly is strconv.QuoteToASCII (%+q).
 */
export function goQuote(s: string, asciiOnly = false): string {
  if (plainAscii.test(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp === 0x22 || cp === 0x5c) {
      out += `\\${ch}`;
    } else if (cp >= 0x20 && cp < 0x7f) {
      out += ch;
    } else if (cp >= 0xd800 && cp <= 0xdfff) {
      out += '\\ufffd';
    } else if (cp > 0x7f && !asciiOnly && printable.test(ch)) {
      out += ch;
    } else if (shortEscapes[cp] !== undefined) {
      out += shortEscapes[cp];
    } else if (cp < 0x20 || cp === 0x7f) {
      out += `\\x${hex(cp, 2)}`;
    } else if (cp < 0x10000) {
      out += `\\u${hex(cp, 4)}`;
    } else {
      out += `\\U${hex(cp, 8)}`;
    }
  }
  return `${out}"`;
}

/** Go's fmtFrac: the fraction of v below 10^prec without trailing zeros ("" when it is zero). */
function fraction(v: number, prec: number): { text: string; rest: number } {
  const scale = 10 ** prec;
  const frac = v % scale;
  const rest = Math.floor(v / scale);
  if (frac === 0) return { text: '', rest };
  const digits = String(frac).padStart(prec, '0').replace(/0+$/, '');
  return { text: `.${digits}`, rest };
}

/** time.Duration.String for a duration in nanoseconds (rounded to whole nanoseconds). */
export function formatGoDurationNs(nanos: number): string {
  let ns = Math.round(nanos);
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  ns = Math.abs(ns);
  if (ns < 1e9) {
    if (ns < 1e3) return `${sign}${ns}ns`;
    const unit = ns < 1e6 ? 'µs' : 'ms';
    const { text, rest } = fraction(ns, ns < 1e6 ? 3 : 6);
    return `${sign}${rest}${text}${unit}`;
  }
  const { text, rest: seconds } = fraction(ns, 9);
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const s = `${seconds % 60}${text}s`;
  if (minutes === 0) return `${sign}${s}`;
  if (hours === 0) return `${sign}${minutes}m${s}`;
  return `${sign}${hours}h${minutes % 60}m${s}`;
}

/**
 * A time.Duration as a log value: klog writes it as a quoted string (it is a fmt.Stringer), kube's
 * JSON format as its string. Immutable.
 */
export class GoDuration {
  constructor(readonly nanoseconds: number) {}

  /** The duration as Go prints it. */
  toString(): string {
    return formatGoDurationNs(this.nanoseconds);
  }

  /** JSON.stringify writes the Go string, as zap's StringDurationEncoder does. */
  toJSON(): string {
    return this.toString();
  }
}
