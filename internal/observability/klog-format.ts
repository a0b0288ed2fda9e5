/**
 * The two log formats of kube-apiserver, one line per record:
 *
 * text (klog): `Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg`, L the severity (I, W, E, F), local
 * time with microseconds, the process id right-aligned in 7 columns. A structured record
 * (InfoS/ErrorS) quotes its message as Go's strconv.Quote and follows it with ` key=value` pairs:
 * strings quoted (a string with line breaks as `key=<` + tab-indented lines + ` >`), errors and
 * durations as their quoted text, numbers, booleans, null and objects as JSON; ErrorS puts `err=`
 * first. An unstructured record (klog.Info) is its text as is.
 *
 * json (component-base/logs/json, zap): `{"ts":<epoch ms, fractional>,"caller":"dir/file.ts:42",
 * "msg":"...","v":<level>,...pairs}`; errors carry no "v" and end with "err".
 */
import type { Caller } from './caller.js';
import { goQuote, GoDuration } from './go-text.js';

/** klog's severities. */
export type Severity = 'I' | 'W' | 'E' | 'F';

/** One record to write (built only for a record that passed the verbosity check). */
export interface LogRecord {
  readonly severity: Severity;
  /** The V level (0 for info, warnings and errors): the JSON format's "v". */
  readonly level: number;
  readonly message: string;
  /** InfoS/ErrorS form (quoted message and pairs) rather than klog.Info's plain text. */
  readonly structured: boolean;
  /** ErrorS's error (written as err="..."); undefined or null: none. */
  readonly err?: unknown;
  readonly pairs?: Readonly<Record<string, unknown>>;
  readonly caller: Caller;
  /** Wall-clock time in epoch milliseconds with a fractional part (microseconds). */
  readonly timeMs: number;
}

const pidColumn = String(process.pid).padStart(7, ' ');

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** The "mmdd hh:mm:ss." part of the header for the last second seen (one Date per second, not per line). */
let cachedSecond = Number.NaN;
let cachedClock = '';

/** klog's header for a record: `I1125 10:00:00.000000    1234 file.ts:42] `. */
export function klogHeader(severity: Severity, timeMs: number, file: string): string {
  const whole = Math.floor(timeMs);
  const second = Math.floor(whole / 1000);
  if (second !== cachedSecond) {
    const d = new Date(second * 1000);
    cachedClock = `${two(d.getMonth() + 1)}${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.`;
    cachedSecond = second;
  }
  const micros = Math.floor((timeMs - second * 1000) * 1000);
  return `${severity}${cachedClock}${String(micros).padStart(6, '0')} ${pidColumn} ${file}] `;
}

/** Go's encoding/json output for v (HTML-escaped, as json.Encoder writes it). */
function goJson(v: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(v);
  } catch (err) {
    return `"<internal error: ${(err as Error).message.replace(/"/g, "'")}>"`;
  }
  if (text === undefined) return 'null';
  return text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function numberText(n: number): string {
  if (Number.isFinite(n)) return String(n);
  return `"<internal error: json: unsupported value: ${Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf'}>"`;
}

/** klog's writeStringValue: `="quoted"`, or the multi-line block form. */
function stringValue(s: string): string {
  if (!s.includes('\n')) return `=${goQuote(s)}`;
  const lines = s.split('\n');
  const last = lines.pop() as string;
  let out = '=<\n';
  for (const line of lines) out += `\t${line}\n`;
  return last === '' ? `${out} >` : `${out}\t${last}\n >`;
}

/** The text of an error value (Go's err.Error()). */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** `=value` for one value of a text-format pair. */
function textValue(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return stringValue(v);
    case 'number':
      return `=${numberText(v)}`;
    case 'boolean':
    case 'bigint':
      return `=${String(v)}`;
    case 'undefined':
      return '=null';
    default:
      if (v === null) return '=null';
      if (v instanceof Error) return stringValue(v.message);
      if (v instanceof GoDuration) return stringValue(v.toString());
      if (v instanceof Uint8Array) return `=${goQuote(Buffer.from(v).toString('utf8'), true)}`;
      return `=${goJson(v)}`;
  }
}

/** The value of one pair in the JSON format. */
function jsonValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'bigint') return String(v);
  if (v instanceof Error) return JSON.stringify(v.message);
  if (v instanceof Uint8Array) return JSON.stringify(Buffer.from(v).toString('base64'));
  return goJson(v);
}

/** A record in klog's text format, newline-terminated. */
export function formatText(r: LogRecord): string {
  let body: string;
  if (r.structured) {
    body = goQuote(r.message);
    if (r.err !== undefined && r.err !== null) body += ` err${stringValue(errorText(r.err))}`;
    if (r.pairs) for (const key in r.pairs) body += ` ${key}${textValue(r.pairs[key])}`;
    body += '\n';
  } else {
    body = r.message.endsWith('\n') ? r.message : `${r.message}\n`;
  }
  return klogHeader(r.severity, r.timeMs, r.caller.file) + body;
}

/** A record in kube's JSON format, newline-terminated. */
export function formatJson(r: LogRecord): string {
  let out = `{"ts":${r.timeMs},"caller":${JSON.stringify(r.caller.short)},"msg":${JSON.stringify(r.message)}`;
  const isError = r.severity === 'E' || r.severity === 'F';
  if (!isError) out += `,"v":${r.level}`;
  if (r.pairs) for (const key in r.pairs) out += `,${JSON.stringify(key)}:${jsonValue(r.pairs[key])}`;
  if (isError && r.err !== undefined && r.err !== null) out += `,"err":${JSON.stringify(errorText(r.err))}`;
  return `${out}}\n`;
}

let offsetMs = Date.now() - performance.now();

/**
 * Wall-clock epoch milliseconds with microseconds: the monotonic clock's resolution with the wall
 * clock's offset, re-read when the wall clock moved (NTP step, suspend) by more than 2 ms.
 */
export function wallClockMs(): number {
  return offsetMs + performance.now();
}

/** Re-aligns wallClockMs with Date.now() (called at each flush, not per line). */
export function resyncWallClock(): void {
  const fresh = Date.now() - performance.now();
  if (Math.abs(fresh - offsetMs) > 2) offsetMs = fresh;
}
