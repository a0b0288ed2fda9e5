/**
 * A bound on how many requests simulated nodes have in flight at once, so a thousand nodes starting
 * together queue their writes here instead of opening a thousand connections to the API server.
 */

/** Runs at most `max` tasks at a time, in arrival order. */
export class Limiter {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly max: number) {}

  /** Runs fn once a slot is free; resolves or rejects as fn does. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}
