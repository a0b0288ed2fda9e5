/**
 * The active watches, when --shutdown-watch-termination-grace-period is set (kube's
 * WatchRequestWaitGroup, a RateLimitedSafeWaitGroup): each watch gets its own shutdown signal;
 * during a graceful shutdown the watches are ended at a limited rate, so that their clients do not
 * all reconnect elsewhere at the same instant, and the shutdown waits for them at most the grace.
 */

/** kube's floor on how many watches end per second while draining. */
const minDrainPerSecond = 200;
const tickMs = 10;

/** The outcome of a drain, as kube logs it. */
export interface WatchDrainResult {
  readonly activeWatchesBefore: number;
  readonly activeWatchesAfter: number;
}

/** Active watches; one per server. */
export class WatchWaitGroup {
  private readonly active = new Set<AbortController>();
  private waiting = false;
  private onEmpty: (() => void) | undefined;

  /** A shutdown signal for a new watch; undefined once draining began (the caller turns it away). */
  add(): AbortController | undefined {
    if (this.waiting) return undefined;
    const c = new AbortController();
    this.active.add(c);
    return c;
  }

  /** The watch of c ended. Idempotent. */
  done(c: AbortController): void {
    if (!this.active.delete(c)) return;
    if (this.active.size === 0) this.onEmpty?.();
  }

  /** How many watches are active. */
  get count(): number {
    return this.active.size;
  }

  /**
   * Stops admitting watches and ends the active ones, max(count / grace, 200) a second; resolves
   * when all have ended or graceMs has passed, whichever comes first.
   */
  drain(graceMs: number): Promise<WatchDrainResult> {
    this.waiting = true;
    const before = this.active.size;
    if (before === 0) return Promise.resolve({ activeWatchesBefore: 0, activeWatchesAfter: 0 });
    const perMs = Math.max(before / graceMs, minDrainPerSecond / 1000);
    const started = Date.now();
    const queue = [...this.active];
    let next = 0;
    return new Promise((resolve) => {
      const finish = (): void => {
        clearInterval(ticker);
        clearTimeout(deadline);
        this.onEmpty = undefined;
        resolve({ activeWatchesBefore: before, activeWatchesAfter: this.active.size });
      };
      // A burst of one, then the rate: the first watch ends at once.
      const endDue = (): void => {
        const due = Math.min(queue.length, 1 + Math.floor((Date.now() - started) * perMs));
        while (next < due) (queue[next++] as AbortController).abort();
      };
      this.onEmpty = finish;
      const ticker = setInterval(endDue, tickMs);
      const deadline = setTimeout(finish, graceMs);
      endDue();
    });
  }

  /** Ends every remaining watch at once (the shutdown is about to close their connections). */
  abortAll(): void {
    for (const c of this.active) c.abort();
  }
}
