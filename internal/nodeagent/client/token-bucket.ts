/**
 * A token bucket (client-go's flowcontrol.NewTokenBucketRateLimiter): qps tokens a second up to
 * burst; take() waits for a token. Used for --kube-api-qps/--kube-api-burst, --event-qps/-burst
 * and --registry-qps/-burst.
 */
export class TokenBucket {
  private tokens: number;
  private last = performance.now();

  constructor(
    private readonly qps: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  private refill(): void {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
  }

  /** Takes a token without waiting; false when none is left (the caller drops or defers). */
  tryTake(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Waits for a token (rejects when signal aborts). */
  async take(signal?: AbortSignal): Promise<void> {
    this.refill();
    this.tokens -= 1;
    if (this.tokens >= 0) return;
    const waitMs = (-this.tokens / this.qps) * 1000;
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, waitMs);
      signal?.addEventListener('abort', () => {
        clearTimeout(t);
        reject(signal.reason);
      }, { once: true });
    });
  }
}
