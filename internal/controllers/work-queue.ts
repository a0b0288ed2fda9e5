/**
 * A keyed work queue for controllers (client-go's rate-limited workqueue, reduced): a key added
 * while queued is queued once; a key being processed and added again is processed again after;
 * a failed key is retried after a delay, at most maxRetries times. One key runs at a time.
 */

/** Handles one key; throws to have it retried. */
export type ProcessKey = (key: string) => Promise<void>;

/** Options of a queue. */
export interface WorkQueueOptions {
  /** Pause before a failed key is tried again (default 1 s). */
  readonly retryMs?: number;
  /** Tries per key before it is dropped (default 10). */
  readonly maxRetries?: number;
  /** Told of a key dropped after its last failure. */
  readonly onDrop?: (key: string, err: unknown) => void;
}

/** Processes keys one at a time. */
export class WorkQueue {
  private readonly pending = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private running = false;
  private stopped = false;

  constructor(
    private readonly process: ProcessKey,
    private readonly options: WorkQueueOptions = {},
  ) {}

  /** Queues key (once, however often it is added before it runs). */
  add(key: string): void {
    if (this.stopped) return;
    this.pending.add(key);
    if (!this.running) void this.drain();
  }

  /** Drops every queued key and pending retry; nothing runs afterwards. */
  stop(): void {
    this.stopped = true;
    this.pending.clear();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (!this.stopped && this.pending.size > 0) {
        const key = this.pending.values().next().value as string;
        this.pending.delete(key);
        try {
          await this.process(key);
          this.failures.delete(key);
        } catch (err) {
          this.retry(key, err);
        }
      }
    } finally {
      this.running = false;
    }
  }

  private retry(key: string, err: unknown): void {
    const tries = (this.failures.get(key) ?? 0) + 1;
    if (tries >= (this.options.maxRetries ?? 10)) {
      this.failures.delete(key);
      this.options.onDrop?.(key, err);
      return;
    }
    this.failures.set(key, tries);
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.add(key);
    }, this.options.retryMs ?? 1000);
    t.unref();
    this.timers.add(t);
  }
}
