/**
 * A work queue of keys (client-go's workqueue, reduced): a key waiting is queued once, a key being
 * processed is never processed twice at a time (added meanwhile, it runs again after), and at most
 * `workers` keys run at once. A failed key is retried after a delay that doubles up to a minute.
 */

/** Processes one key; throws to have it retried. */
export type KeyHandler = (key: string) => Promise<void>;

/** The queue. */
export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private active = 0;
  private stopped = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly handler: KeyHandler,
    private readonly onError: (key: string, err: unknown) => void,
    private readonly workers = 5,
  ) {}

  /** Queues key. */
  add(key: string): void {
    if (this.stopped || this.queued.has(key)) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    this.queued.add(key);
    this.queue.push(key);
    this.pump();
  }

  /** Resolves once nothing is queued or running (for tests). */
  idle(): Promise<void> {
    if (this.active === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops everything and ignores later adds. */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.queue.length = 0;
    this.queued.clear();
  }

  private retryLater(key: string): void {
    const n = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, n);
    const delay = Math.min(60_000, 5 * 2 ** Math.min(n, 14));
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.add(key);
    }, delay);
    t.unref();
    this.timers.add(t);
  }

  private pump(): void {
    while (!this.stopped && this.active < this.workers && this.queue.length > 0) {
      const key = this.queue.shift() as string;
      this.queued.delete(key);
      this.processing.add(key);
      this.active++;
      void this.handler(key)
        .then(
          () => this.failures.delete(key),
          (err: unknown) => {
            this.onError(key, err);
            this.retryLater(key);
          },
        )
        .finally(() => {
          this.active--;
          this.processing.delete(key);
          if (this.dirty.delete(key)) this.add(key);
          this.pump();
          if (this.active === 0 && this.queue.length === 0) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            for (const w of waiters) w();
          }
        });
    }
  }
}
