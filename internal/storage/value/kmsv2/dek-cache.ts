/**
 * The KMS v2 data key cache (kube's kmsv2 simpleCache): decrypted DEKs/seeds, as ready
 * transformers, by their encrypted form. Entries live 24 hours from when they were set (kube's
 * cacheTTL): with seed reuse there are only about as many as key IDs times server restarts.
 */
import type { ValueTransformer } from '../interface.js';

const defaultTtlMs = 24 * 60 * 60 * 1000;
const gcEveryMs = 60_000;

/** A cache of data-key transformers by cache key (see dekCacheKey). */
export class DekCache {
  private readonly entries = new Map<string, { readonly transformer: ValueTransformer; readonly expiresAt: number }>();
  private lastGc = 0;

  constructor(
    private readonly ttlMs = defaultTtlMs,
    private readonly now: () => number = Date.now,
  ) {}

  /** The transformer for key, or undefined when absent or expired. */
  get(key: string): ValueTransformer | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.transformer;
  }

  /** Caches transformer under key for the TTL (again from now when already there). */
  set(key: string, transformer: ValueTransformer): void {
    const now = this.now();
    this.entries.set(key, { transformer, expiresAt: now + this.ttlMs });
    if (now - this.lastGc >= gcEveryMs) {
      this.lastGc = now;
      for (const [k, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(k);
    }
  }

  /** How many entries are held (tests, metrics). */
  get size(): number {
    return this.entries.size;
  }
}
