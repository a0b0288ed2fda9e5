/**
 * kube's LRUExpireCache for webhook answers: at most `capacity` entries, each with its own expiry;
 * reading an entry makes it the most recently used, adding past capacity evicts the least recently
 * used. Synchronous; time comes from the injected clock (tests move it).
 */

interface Entry<V> {
  readonly value: V;
  readonly expiresAt: number;
}

/** A bounded cache whose entries expire. */
export class LruExpireCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly capacity: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The live value under key, if any (an expired entry is dropped). */
  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.expiresAt <= this.now()) return undefined;
    this.entries.set(key, e);
    return e.value;
  }

  /** Stores value for ttlMs (a ttl of 0 or less stores nothing). */
  add(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** How many entries are held (expired ones included until read). */
  size(): number {
    return this.entries.size;
  }
}
