/**
 * The Retry-After of priority and fairness's 429s (kube's dropped requests tracker), per priority
 * level: starts at 1 s; doubles (up to 32 s, at most once per current value in seconds) when at
 * least three times its value in requests were rejected over the last value seconds; comes down by
 * one second when fewer than its value were. Re-evaluated when a rejection opens a new second.
 */

const maxRetryAfter = 32;

class LevelStats {
  retryAfter = 1;
  private updatedAt = 0;
  private currentSecond = 0;
  private currentCount = 0;
  private history: Array<{ second: number; count: number }> = [];

  record(second: number): void {
    if (second === this.currentSecond) {
      this.currentCount++;
      return;
    }
    if (this.currentCount > 0) this.history.push({ second: this.currentSecond, count: this.currentCount });
    const keep = Math.min(2 * this.retryAfter, maxRetryAfter);
    while (this.history.length > 0 && second - (this.history[0] as { second: number }).second > keep) this.history.shift();
    this.currentSecond = second;
    this.currentCount = 1;
    this.update(second);
  }

  private update(now: number): void {
    let dropped = 0;
    for (let i = this.history.length - 1; i >= 0; i--) {
      const h = this.history[i] as { second: number; count: number };
      if (now - h.second > this.retryAfter) break;
      if (h.second < now) dropped += h.count;
    }
    if (now - this.updatedAt >= this.retryAfter && dropped >= 3 * this.retryAfter) {
      this.retryAfter = Math.min(this.retryAfter * 2, maxRetryAfter);
      this.updatedAt = now;
      return;
    }
    if (dropped < this.retryAfter && this.retryAfter > 1) this.retryAfter--;
  }
}

/** Rejections per level and the Retry-After they lead to. */
export class DroppedRequestsTracker {
  private readonly levels = new Map<string, LevelStats>();

  constructor(private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000)) {}

  /** Notes a rejected request of level. */
  record(level: string): void {
    let s = this.levels.get(level);
    if (!s) this.levels.set(level, (s = new LevelStats()));
    s.record(this.nowSeconds());
  }

  /** The Retry-After seconds for level's next rejection. */
  retryAfter(level: string): number {
    return this.levels.get(level)?.retryAfter ?? 1;
  }
}
