/**
 * A token bucket (client-go's flowcontrol.NewTokenBucketRateLimiter, golang.org/x/time/rate
 * underneath): qps tokens a second, at most burst held, full at the start. A caller reserves a
 * token and waits the time the reservation names, so tokens can go negative and later callers
 * queue behind earlier ones (the audit backends); or tries to take one and never waits
 * (EventRateLimit).
 */

/** A token bucket; one per limited thing. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  /** now is in milliseconds (performance.now unless a test gives its own clock). */
  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(qps > 0) || !(burst > 0)) throw new RangeError(`a token bucket needs a positive rate and burst (qps ${qps}, burst ${burst})`);
    this.tokens = burst;
    this.last = now();
  }

  /** Takes one token and returns how many milliseconds to wait before acting on it (0: act now). */
  reserve(): number {
    this.refill();
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.qps;
  }

  /** Takes a token if one is there now (client-go's TryAccept); never waits. */
  tryAccept(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private refill(): void {
    const t = this.now();
    if (t > this.last) {
      this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) * this.qps) / 1000);
      this.last = t;
    }
  }
}
