/** A small map whose entries expire (the kubelet server's authentication and authorization caches). */

/** Entries with a time to live each; expired entries are dropped when read or when the map grows. */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  constructor(
    private readonly now: () => number = Date.now,
    /** Past this many entries, expired ones are swept before adding. */
    private readonly sweepAt = 4096,
  ) {}

  /** The live value of key, if any. */
  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Stores value for ttlMs (0 or less: not stored). */
  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    if (this.entries.size >= this.sweepAt) {
      const t = this.now();
      for (const [k, e] of this.entries) if (e.expires <= t) this.entries.delete(k);
      if (this.entries.size >= this.sweepAt) this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { value, expires: this.now() + ttlMs });
  }
}
