/**
 * A token bucket (client-go's flowcontrol token bucket rate limiter, over golang.org/x/time/rate):
 * it starts full with burst tokens and refills at qps per second up to burst; tryAccept takes one
 * token when there is one and never waits.
 */

/** One bucket. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Takes a token if one is there. */
  tryAccept(): boolean {
    const t = this.now();
    if (t > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.qps);
      this.last = t;
    }
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }
}
