/**
 * Reads waiting for a cache to reach a revision (kube's watchCache waitUntilFreshAndBlock): each
 * waits until the cache, ready, reflects its revision, or until its timeout.
 */
export class RevisionWaiters {
  private waiters: Array<{ rv: number; resolve: () => void }> = [];

  /** Resolves the waiters the cache now satisfies: it is ready and at revision rv. */
  wake(ready: boolean, rv: number): void {
    if (this.waiters.length === 0) return;
    const still: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (ready && rv >= w.rv) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  /** Waits until wake() reports revision rv reached or timeoutMs passes; true when it was reached. */
  wait(rv: number, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const entry = {
        rv,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== entry);
        resolve(false);
      }, timeoutMs);
      timer.unref();
      this.waiters.push(entry);
    });
  }
}
