/**
 * The back-off a source waits between failed attempts (client-go's reflector: 800 ms doubling to
 * 30 s, reset after a success), with an abortable sleep.
 */

/** An exponential back-off; next() gives the delay to wait now, reset() after a success. */
export class Backoff {
  private current = 0;

  constructor(
    private readonly initialMs = 800,
    private readonly maxMs = 30_000,
  ) {}

  next(): number {
    this.current = this.current === 0 ? this.initialMs : Math.min(this.maxMs, this.current * 2);
    // Jitter, as wait.Backoff's factor 1.0 jitter spreads reconnecting clients.
    return Math.round(this.current * (1 + Math.random() * 0.2));
  }

  reset(): void {
    this.current = 0;
  }
}

/** Resolves after ms, or early (without rejecting) when signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
