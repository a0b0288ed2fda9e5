/**
 * Logging as kube-apiserver logs: klog's text format (or kube's JSON format) on stderr, through
 * winston (a format that renders the record, a transport that buffers it until the next flush).
 * Errors, warnings and info are always written; v(n, ...) only when -v is at least n, or when
 * --vmodule gives the calling file a level of at least n. That check comes before anything is
 * formatted, and the caller's file:line is looked up only for a line that is written.
 *
 * A message given without key/value pairs is written as klog.Info writes text; with pairs (even
 * an empty object) as klog.InfoS: the message quoted, then ` key="value"` for each pair.
 */
import winston from 'winston';
import { callerOf, type Caller } from './caller.js';
import { formatJson, formatText, wallClockMs, type LogRecord, type Severity } from './klog-format.js';
import { BufferedLogTransport, stderrWriter, stdoutWriter, type LogWriter } from './log-sink.js';
import { compileVModule, type VModule, type VModuleItem } from './vmodule.js';

/** The logger every component gets. Never throws. */
export interface Logger {
  error(message: string, pairs?: Record<string, unknown>): void;
  warn(message: string, pairs?: Record<string, unknown>): void;
  info(message: string, pairs?: Record<string, unknown>): void;
  /** Logs only when -v (or the caller's --vmodule level) is at least level. */
  v(level: number, message: string, pairs?: Record<string, unknown>): void;
}

/** The process logger: a Logger whose verbosity can be read and changed, and flushed. */
export interface KlogLogger extends Logger {
  /** klog.ErrorS: the quoted message, then err="..." (when err is not null), then the pairs. */
  errorS(err: unknown, message: string, pairs?: Record<string, unknown>): void;
  /** klog.V(level).Enabled() for the calling file: check it before building an expensive record. */
  enabled(level: number): boolean;
  /** The current -v. */
  readonly verbosity: number;
  /** Changes -v at run time (/debug/flags/v). */
  setVerbosity(level: number): void;
  /** Writes what is buffered now (before a fatal exit, at shutdown). */
  flush(): void;
}

/** How to log; every field has kube's default. */
export interface LoggerOptions {
  /** -v (default 0). */
  readonly verbosity?: number;
  /** --vmodule. */
  readonly vmodule?: readonly VModuleItem[];
  /** --logging-format (default text). */
  readonly format?: 'text' | 'json';
  /** --log-flush-frequency in ms (default 5000). */
  readonly flushFrequencyMs?: number;
  /** Where lines go (default stderr); tests pass their own. */
  readonly writer?: LogWriter;
  /**
   * Split streams (--log-text-split-stream, --log-json-split-stream, LoggingAlphaOptions): errors
   * to stderr (errorWriter) at once, info and warnings to stdout (infoWriter) buffered up to
   * infoBufferBytes (0: at once).
   */
  readonly splitStream?: { readonly infoBufferBytes: number; readonly infoWriter?: LogWriter; readonly errorWriter?: LogWriter };
  /** Writes nothing at all, and enabled() is always false (unit tests). */
  readonly silent?: boolean;
}

const RECORD = Symbol('klog record');
const MESSAGE = Symbol.for('message');
const winstonLevel: Record<Severity, string> = { I: 'info', W: 'warn', E: 'error', F: 'error' };

class ProcessLogger implements KlogLogger {
  private level: number;
  private readonly vmodule: VModule | undefined;
  private readonly winston: winston.Logger | undefined;
  private readonly transports: BufferedLogTransport[] = [];

  constructor(options: LoggerOptions) {
    this.level = options.verbosity ?? 0;
    this.vmodule = options.vmodule ? compileVModule(options.vmodule) : undefined;
    if (options.silent) return;
    const render = options.format === 'json' ? formatJson : formatText;
    const flushMs = options.flushFrequencyMs ?? 5000;
    const split = options.splitStream;
    if (split) {
      this.transports.push(
        new BufferedLogTransport(split.errorWriter ?? stderrWriter, flushMs, { maxBufferedChars: 0, levels: new Set(['error']) }),
        new BufferedLogTransport(split.infoWriter ?? stdoutWriter, flushMs, { maxBufferedChars: split.infoBufferBytes, levels: new Set(['warn', 'info']) }),
      );
    } else {
      this.transports.push(new BufferedLogTransport(options.writer ?? stderrWriter, flushMs));
    }
    const klogFormat = winston.format((info) => {
      info[MESSAGE] = render(info[RECORD] as LogRecord);
      return info;
    });
    this.winston = winston.createLogger({
      levels: { error: 0, warn: 1, info: 2 },
      level: 'info',
      format: klogFormat(),
      transports: this.transports,
      exitOnError: false,
    });
  }

  get verbosity(): number {
    return this.level;
  }

  setVerbosity(level: number): void {
    this.level = level;
  }

  private emit(severity: Severity, level: number, message: string, structured: boolean, pairs: Record<string, unknown> | undefined, err: unknown, caller: Caller): void {
    const record: LogRecord = { severity, level, message, structured, err, caller, timeMs: wallClockMs(), ...(pairs ? { pairs } : {}) };
    try {
      this.winston?.log({ level: winstonLevel[severity], message, [RECORD]: record });
    } catch {
      // A logger never throws into its caller.
    }
  }

  error(message: string, pairs?: Record<string, unknown>): void {
    if (this.winston) this.emit('E', 0, message, pairs !== undefined, pairs, undefined, callerOf());
  }

  errorS(err: unknown, message: string, pairs?: Record<string, unknown>): void {
    if (this.winston) this.emit('E', 0, message, true, pairs, err, callerOf());
  }

  warn(message: string, pairs?: Record<string, unknown>): void {
    if (this.winston) this.emit('W', 0, message, pairs !== undefined, pairs, undefined, callerOf());
  }

  info(message: string, pairs?: Record<string, unknown>): void {
    if (this.winston) this.emit('I', 0, message, pairs !== undefined, pairs, undefined, callerOf());
  }

  v(level: number, message: string, pairs?: Record<string, unknown>): void {
    if (!this.winston) return;
    let caller: Caller | undefined;
    if (level > this.level) {
      if (!this.vmodule) return;
      caller = callerOf();
      if ((this.vmodule.levelOf(caller.module) ?? -1) < level) return;
    }
    this.emit('I', level, message, pairs !== undefined, pairs, undefined, caller ?? callerOf());
  }

  enabled(level: number): boolean {
    if (!this.winston) return false;
    if (level <= this.level) return true;
    if (!this.vmodule) return false;
    return (this.vmodule.levelOf(callerOf().module) ?? -1) >= level;
  }

  flush(): void {
    for (const t of this.transports) t.flush();
  }
}

/**
 * Creates a logger. A number is -v (the form tests use); silent discards everything. The logger
 * flushes itself every flushFrequencyMs and when the process exits.
 */
export function createLogger(options: number | LoggerOptions = 0, silent = false): KlogLogger {
  const opts = typeof options === 'number' ? { verbosity: options } : options;
  return new ProcessLogger(silent ? { ...opts, silent: true } : opts);
}
