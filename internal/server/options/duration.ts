/**
 * Go's time.ParseDuration ("5m0s", "1h30m", "300ms", "0"), since kube-apiserver's duration flags
 * take that syntax.
 */

const unitMs: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a Go duration into milliseconds; throws an Error with Go's message on bad input. */
export function parseGoDuration(text: string): number {
  const orig = text;
  let s = text.trim();
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw new Error(`time: invalid duration ${JSON.stringify(orig)}`);
  const re = /([0-9]*\.?[0-9]+|[0-9]+\.)(ns|us|µs|μs|ms|s|m|h)/y;
  let total = 0;
  let pos = 0;
  while (pos < s.length) {
    re.lastIndex = pos;
    const m = re.exec(s);
    if (!m) {
      if (/^[0-9.]+$/.test(s.slice(pos))) throw new Error(`time: missing unit in duration ${JSON.stringify(orig)}`);
      throw new Error(`time: invalid duration ${JSON.stringify(orig)}`);
    }
    total += Number(m[1]) * (unitMs[m[2] as string] as number);
    pos = re.lastIndex;
  }
  return sign * total;
}

/** Formats milliseconds the way Go prints a time.Duration ("5m0s", "1h0m0s", "1.5s"). */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  if (rest < 1000) return `${neg ? '-' : ''}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = rest / 1000;
  const out = h > 0 ? `${h}h${m}m${s}s` : m > 0 ? `${m}m${s}s` : `${s}s`;
  return `${neg ? '-' : ''}${out}`;
}
