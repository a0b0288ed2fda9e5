/**
 * The logging flags kube-apiserver 1.33 registers from component-base/logs: -v, --vmodule,
 * --logging-format, --log-flush-frequency and the [Alpha] split-stream and info-buffer flags of the
 * text and JSON formats. Parsing errors read as pflag's; the rest is validated as kube's
 * logsapi.Validate does (field errors, several as "[a, b]"). The JSON format is gated by
 * LoggingBetaOptions, on by default in 1.33 (off, json is refused as kube refuses it); the
 * split-stream and buffer flags need LoggingAlphaOptions, off by default: refused without it, and
 * with it the chosen format's errors go to stderr and the rest to stdout, buffered up to the size.
 */
import { goQuote } from '../../observability/go-text.js';
import type { VModuleItem } from '../../observability/vmodule.js';
import { formatGoDuration } from './duration.js';
import { featureGatesFromFlags } from './feature-gates.js';
import { boolFlag, durationFlag, FlagError } from './flag-values.js';
import type { FlagGroup } from './groups.js';

/** Validated logging options. */
export interface LoggingOptions {
  /** -v. */
  readonly verbosity: number;
  /** --vmodule, in flag order (entries with level 0 included; the logger ignores them). */
  readonly vmodule: readonly VModuleItem[];
  /** --logging-format. */
  readonly format: 'text' | 'json';
  /** --log-flush-frequency in ms (> 0). */
  readonly flushFrequencyMs: number;
  /**
   * The chosen format's split stream (--log-text-split-stream or --log-json-split-stream, which
   * need the LoggingAlphaOptions gate): errors on stderr, info and warnings on stdout, the latter
   * buffered up to infoBufferBytes (0: written at once).
   */
  readonly splitStream?: { readonly infoBufferBytes: number };
}

declare module './groups.js' {
  interface FlagGroupOptions {
    readonly logging?: LoggingOptions;
  }
}

/** kube's defaults. */
export const defaultLoggingOptions: LoggingOptions = { verbosity: 0, vmodule: [], format: 'text', flushFrequencyMs: 5000 };

const alphaSplit = (format: string): string =>
  `[Alpha] In ${format} format, write error messages to stderr and info messages to stdout. The default is to write a single stream to stdout. Enable the LoggingAlphaOptions feature gate to use this.`;
const alphaBuffer = (format: string): string =>
  `[Alpha] In ${format} format with split output streams, the info messages can be buffered for a while to increase performance. The default value of zero bytes disables buffering. The size can be specified as number of bytes (512), multiples of 1000 (1K), multiples of 1024 (2Ki), or powers of those (3M, 4G, 5Mi, 6Gi). Enable the LoggingAlphaOptions feature gate to use this.`;

const maxLevel = 2 ** 31 - 1;

/** strconv.ParseUint(s, 10, 31), with Go's error text. */
function parseLevel(s: string): number {
  if (!/^[0-9]+$/.test(s)) throw new Error(`strconv.ParseUint: parsing ${goQuote(s)}: invalid syntax`);
  const n = Number(s);
  if (n > maxLevel) throw new Error(`strconv.ParseUint: parsing ${goQuote(s)}: value out of range`);
  return n;
}

/** --vmodule as component-base's pflag reads it; each occurrence appends. */
function parseVModule(occurrences: readonly string[]): VModuleItem[] {
  const out: VModuleItem[] = [];
  for (const value of occurrences) {
    for (const pat of value.split(',')) {
      if (pat === '') continue;
      const parts = pat.split('=');
      const invalid = (why: string): FlagError => new FlagError(`invalid argument ${goQuote(value)} for "--vmodule" flag: ${why}`);
      if (parts.length !== 2 || parts[0] === '' || parts[1] === '') throw invalid(`${goQuote(pat)} does not have the pattern=N format`);
      try {
        out.push({ pattern: parts[0] as string, level: parseLevel(parts[1] as string) });
      } catch (err) {
        throw invalid(`parsing verbosity in ${goQuote(pat)}: ${(err as Error).message}`);
      }
    }
  }
  return out;
}

const quantityPattern = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const quantitySuffixes = new Set(['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei']);

/** Whether a resource.Quantity flag value is zero; throws pflag's error for an invalid quantity. */
const suffixMultipliers: Readonly<Record<string, number>> = {
  '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

/** A byte quantity flag's value in bytes, rounded up as resource.Quantity.Value() rounds. */
function quantityBytes(name: string, value: string): number {
  if (quantityIsZero(name, value)) return 0;
  const m = quantityPattern.exec(value) as RegExpExecArray;
  const suffix = m[2] as string;
  const multiplier = suffixMultipliers[suffix] ?? 10 ** Number(suffix.slice(1));
  return Math.ceil(Number(m[1]) * multiplier);
}

function quantityIsZero(name: string, value: string): boolean {
  const m = quantityPattern.exec(value);
  const bad = (why: string): FlagError => new FlagError(`invalid argument ${goQuote(value)} for "--${name}" flag: ${why}`);
  if (!m) throw bad("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  const suffix = m[2] as string;
  if (!quantitySuffixes.has(suffix) && !/^[eE][-+]?[0-9]+$/.test(suffix)) throw bad("unable to parse quantity's suffix");
  const number = Number(m[1]);
  if (Number.isNaN(number)) throw bad("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  return number === 0;
}

/** The logging flag group. */
export const loggingFlags: FlagGroup<'logging'> = {
  repeatable: ['vmodule'],
  register(y) {
    y.option('log-flush-frequency', { type: 'string', default: '5s', describe: 'Maximum number of seconds between log flushes' });
    y.option('log-json-info-buffer-size', { type: 'string', defaultDescription: '0', describe: alphaBuffer('JSON') });
    y.option('log-json-split-stream', { type: 'string', defaultDescription: 'false', describe: alphaSplit('JSON') });
    y.option('log-text-info-buffer-size', { type: 'string', defaultDescription: '0', describe: alphaBuffer('text') });
    y.option('log-text-split-stream', { type: 'string', defaultDescription: 'false', describe: alphaSplit('text') });
    y.option('logging-format', { type: 'string', default: 'text', describe: 'Sets the log format. Permitted formats: "json" (gated by LoggingBetaOptions), "text".' });
    y.option('v', { type: 'string', default: '0', describe: 'number for the log level verbosity' });
    y.option('vmodule', { type: 'string', describe: 'comma-separated list of pattern=N settings for file-filtered logging (only works for text log format)' });
  },
  validate(p) {
    let verbosity: number;
    try {
      verbosity = parseLevel(String(p.v));
    } catch (err) {
      throw new FlagError(`invalid argument ${goQuote(String(p.v))} for "-v, --v" flag: ${(err as Error).message}`);
    }
    const vmoduleValues = p.vmodule === undefined ? [] : Array.isArray(p.vmodule) ? p.vmodule.map(String) : [String(p.vmodule)];
    const vmodule = parseVModule(vmoduleValues);
    const flushFrequencyMs = durationFlag('log-flush-frequency', p['log-flush-frequency']);
    if (flushFrequencyMs <= 0) throw new FlagError(`--log-flush-frequency ${formatGoDuration(flushFrequencyMs)}: the interval between log flushes must be greater than 0`);
    const textSplit = boolFlag('log-text-split-stream', p['log-text-split-stream'], false);
    const jsonSplit = boolFlag('log-json-split-stream', p['log-json-split-stream'], false);
    const textBufferZero = p['log-text-info-buffer-size'] === undefined || quantityIsZero('log-text-info-buffer-size', String(p['log-text-info-buffer-size']));
    const jsonBufferZero = p['log-json-info-buffer-size'] === undefined || quantityIsZero('log-json-info-buffer-size', String(p['log-json-info-buffer-size']));

    const format = String(p['logging-format']);
    const errors: string[] = [];
    if (format !== 'text' && vmodule.length > 0) errors.push(`format: Invalid value: ${goQuote(format)}: Non-default format doesn't honor flag: vmodule`);
    if (format !== 'text' && format !== 'json') errors.push(`format: Invalid value: ${goQuote(format)}: Unsupported log format`);
    if (vmodule.length > 0 && format !== 'text') errors.push('vmodule: Forbidden: Only supported for text log format');
    const gates = featureGatesFromFlags(p);
    if (format === 'json' && !gates.enabled('LoggingBetaOptions')) errors.push('format: Forbidden: Log format json is disabled, see LoggingBetaOptions feature');
    const alphaOn = gates.enabled('LoggingAlphaOptions');
    const alpha = 'Forbidden: Feature LoggingAlphaOptions is disabled';
    if (!alphaOn) {
      if (textSplit) errors.push(`options.text.splitStream: ${alpha}`);
      if (!textBufferZero) errors.push(`options.text.infoBufferSize: ${alpha}`);
      if (jsonSplit) errors.push(`options.json.splitStream: ${alpha}`);
      if (!jsonBufferZero) errors.push(`options.json.infoBufferSize: ${alpha}`);
    }
    if (errors.length > 0) throw new FlagError(errors.length === 1 ? (errors[0] as string) : `[${errors.join(', ')}]`);
    // The chosen format's options apply (kube's options.text for text, options.json for json).
    const split = format === 'json' ? jsonSplit : textSplit;
    const bufferFlag = format === 'json' ? 'log-json-info-buffer-size' : 'log-text-info-buffer-size';
    const infoBufferBytes = p[bufferFlag] === undefined ? 0 : quantityBytes(bufferFlag, String(p[bufferFlag]));
    return { logging: { verbosity, vmodule, format: format as 'text' | 'json', flushFrequencyMs, ...(split ? { splitStream: { infoBufferBytes } } : {}) } };
  },
};
