/**
 * The winston transport every log line ends in: lines are kept in memory and written to the sink
 * (stderr) together at most --log-flush-frequency apart, when 256 KiB are waiting (klog's buffer
 * size), on flush() (shutdown, a fatal error) and when the process exits, so a busy server makes
 * one write() per interval instead of one per line. A test passes its own sink.
 */
import winston from 'winston';
import type TransportStream from 'winston-transport';
import { resyncWallClock } from './klog-format.js';

/** Where flushed text goes; must not throw. */
export type LogWriter = (chunk: string) => void;

/** klog's per-file buffer size: past this the lines are written at once. */
const maxBufferedChars = 256 * 1024;

const MESSAGE = Symbol.for('message');
// winston's own export of winston-transport (its typings name it `transport`, the module `Transport`).
const TransportBase = (winston as unknown as { Transport: typeof TransportStream }).Transport;
const live = new Set<BufferedLogTransport>();
let exitHooked = false;

function flushAll(): void {
  for (const t of live) t.flush();
}

/** The default sink: stderr (synchronous for files, pipes and terminals on Linux). */
export const stderrWriter: LogWriter = (chunk) => {
  try {
    process.stderr.write(chunk);
  } catch {
    // Nowhere left to report a failing stderr.
  }
};

/** stdout, for the info stream of a split stream (--log-*-split-stream). */
export const stdoutWriter: LogWriter = (chunk) => {
  try {
    process.stdout.write(chunk);
  } catch {
    // Nowhere left to report a failing stdout.
  }
};

/** Which records a transport takes, and how much it may hold before writing. */
export interface TransportLimits {
  /** Past this many characters the lines are written at once (default klog's 256 KiB; 0: every line at once). */
  readonly maxBufferedChars?: number;
  /** The winston levels taken (default: every level). */
  readonly levels?: ReadonlySet<string>;
}

/** Buffers formatted lines and writes them to a LogWriter. */
export class BufferedLogTransport extends TransportBase {
  private readonly pending: string[] = [];
  private pendingChars = 0;
  private readonly timer: NodeJS.Timeout;

  /** flushEveryMs is --log-flush-frequency (> 0). */
  constructor(
    private readonly writer: LogWriter,
    flushEveryMs: number,
    private readonly limits: TransportLimits = {},
  ) {
    super();
    this.timer = setInterval(() => this.flush(), flushEveryMs);
    this.timer.unref();
    live.add(this);
    if (!exitHooked) {
      exitHooked = true;
      process.on('exit', flushAll);
    }
  }

  /** winston's entry point: one formatted record (its MESSAGE). */
  override log(info: Record<string | symbol, unknown>, next: () => void): void {
    if (this.limits.levels && !this.limits.levels.has(info.level as string)) {
      next();
      return;
    }
    const line = info[MESSAGE] as string;
    this.pending.push(line);
    this.pendingChars += line.length;
    if (this.pendingChars >= (this.limits.maxBufferedChars ?? maxBufferedChars)) this.flush();
    next();
  }

  /** Writes what is buffered now. */
  flush(): void {
    resyncWallClock();
    if (this.pending.length === 0) return;
    const chunk = this.pending.length === 1 ? (this.pending[0] as string) : this.pending.join('');
    this.pending.length = 0;
    this.pendingChars = 0;
    this.writer(chunk);
  }

  /** Flushes and stops the timer; the transport takes no more lines. */
  override close(): void {
    this.flush();
    clearInterval(this.timer);
    live.delete(this);
  }
}
