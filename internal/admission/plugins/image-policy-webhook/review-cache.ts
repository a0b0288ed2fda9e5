/** The ImagePolicyWebhook's cache of review answers (kube's LRU expire cache of 1024 entries). */

interface Entry<V> {
  readonly value: V;
  readonly expires: number;
}

/** Answers by review spec, each kept for its own TTL; the least recently used goes first when full. */
export class ExpiringLruCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(private readonly capacity = 1024) {}

  /** The value under key when it has not expired. */
  get(key: string, now = Date.now()): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.expires <= now) return undefined;
    this.entries.set(key, e);
    return e.value;
  }

  /** Keeps value under key for ttlMs. */
  add(key: string, value: V, ttlMs: number, now = Date.now()): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: now + ttlMs });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}
