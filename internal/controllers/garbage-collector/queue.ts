/**
 * A work queue as client-go's rate-limited workqueue: an item is queued once however often it is
 * added, is never processed by two workers at once (added while processing, it runs again after),
 * and a failed item comes back after a per-item exponential backoff (5 ms doubling up to 1000 s,
 * as kube's default controller rate limiter) until it succeeds and is forgotten.
 */

/** What a worker says about an item it processed. */
export type WorkResult = 'forget' | 'requeue';

/** A deduplicating, rate-limited queue of items identified by key. */
export class WorkQueue<T> {
  private readonly queue: string[] = [];
  private readonly items = new Map<string, T>();
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private waiters: Array<() => void> = [];
  private stopped = false;

  constructor(
    private readonly keyOf: (item: T) => string,
    private readonly baseDelayMs = 5,
    private readonly maxDelayMs = 1_000_000,
  ) {}

  /** Queues item (the latest value of a key wins). */
  add(item: T): void {
    if (this.stopped) return;
    const key = this.keyOf(item);
    this.items.set(key, item);
    if (this.dirty.has(key)) return;
    this.dirty.add(key);
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.wake();
  }

  /** Queues item after its key's backoff, which doubles each time until forget(). */
  addRateLimited(item: T): void {
    const key = this.keyOf(item);
    const n = this.failures.get(key) ?? 0;
    this.failures.set(key, n + 1);
    const delay = Math.min(this.baseDelayMs * 2 ** n, this.maxDelayMs);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.add(item);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  /** Clears a key's backoff. */
  forget(item: T): void {
    this.failures.delete(this.keyOf(item));
  }

  /** How many times a key has been requeued since it was last forgotten. */
  requeues(item: T): number {
    return this.failures.get(this.keyOf(item)) ?? 0;
  }

  /** Queued and in-process items (for tests and metrics). */
  get length(): number {
    return this.queue.length + this.processing.size;
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private async next(): Promise<{ key: string; item: T } | undefined> {
    while (!this.stopped) {
      const key = this.queue.shift();
      if (key !== undefined) {
        this.dirty.delete(key);
        this.processing.add(key);
        return { key, item: this.items.get(key) as T };
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    return undefined;
  }

  private done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.has(key)) {
      this.queue.push(key);
      this.wake();
    } else {
      this.items.delete(key);
    }
  }

  /** Runs count workers calling process until stop(); process must not throw (a throw counts as requeue). */
  run(count: number, process: (item: T) => Promise<WorkResult>): void {
    const worker = async (): Promise<void> => {
      for (;;) {
        const next = await this.next();
        if (!next) return;
        let result: WorkResult;
        try {
          result = await process(next.item);
        } catch {
          result = 'requeue';
        }
        this.done(next.key);
        if (this.stopped) return;
        if (result === 'forget') this.forget(next.item);
        else this.addRateLimited(next.item);
      }
    };
    for (let i = 0; i < count; i++) void worker();
  }

  /** Stops the workers (after their current item) and drops what is queued. */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.wake();
  }
}
