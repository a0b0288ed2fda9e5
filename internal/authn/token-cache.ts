/**
 * The token cache kube-apiserver puts in front of its whole bearer-token union: a token accepted
 * for some audiences is remembered for 10 s (kube's TokenSuccessCacheTTL; failures, whose TTL is
 * 0 in kube-apiserver, are not cached), so a client sending the same token on every request pays
 * for the methods behind (JWT signatures, informer lookups, webhooks) once per interval.
 * Concurrent lookups of one token share one call. Keys are an HMAC (per-process random key) of
 * the audiences and the token, so the cache never holds a token; entries are bounded in number.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { AuthenticationResult, MaybePromise, TokenAuthenticator } from './interface.js';

/** How the cache behaves. */
export interface TokenCacheOptions {
  /** How long a success is kept (kube-apiserver: 10 s). */
  readonly successTtlMs: number;
  /** How long "no user" (and, with cacheErrors, errors) is kept (kube-apiserver: 0, not at all). */
  readonly failureTtlMs: number;
  /** Whether errors are kept for failureTtlMs too; kube's webhook token cache keeps none. Default true. */
  readonly cacheErrors?: boolean;
  /** At most this many entries; the oldest go first. */
  readonly maxEntries: number;
  readonly now?: () => number;
}

/** kube-apiserver's TTLs, and a bound on memory (about 300 bytes an entry). */
export const defaultTokenCacheOptions: TokenCacheOptions = { successTtlMs: 10_000, failureTtlMs: 0, maxEntries: 16_384 };

interface Entry {
  readonly expires: number;
  readonly result: AuthenticationResult | undefined;
  readonly error?: unknown;
}

/** Wraps a token authenticator with the cache; itself a TokenAuthenticator. */
export class CachedTokenAuthenticator implements TokenAuthenticator {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<AuthenticationResult | undefined>>();
  private readonly hmacKey = randomBytes(32);
  private readonly now: () => number;

  constructor(
    private readonly inner: TokenAuthenticator,
    private readonly options: TokenCacheOptions = defaultTokenCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** The cache key: audiences and token length-prefixed, so no two inputs share a key. */
  private key(token: string, audiences: readonly string[]): string {
    const h = createHmac('sha256', this.hmacKey);
    h.update(`${audiences.length}\0`);
    for (const a of audiences) h.update(`${Buffer.byteLength(a)}\0${a}`);
    h.update(`${Buffer.byteLength(token)}\0`);
    h.update(token);
    return h.digest('base64');
  }

  authenticateToken(token: string, audiences: readonly string[]): MaybePromise<AuthenticationResult | undefined> {
    const key = this.key(token, audiences);
    const hit = this.entries.get(key);
    if (hit) {
      if (hit.expires > this.now()) {
        if (hit.error !== undefined) throw hit.error;
        return hit.result;
      }
      this.entries.delete(key);
    }
    const pending = this.inflight.get(key);
    if (pending) return pending;
    let answer: MaybePromise<AuthenticationResult | undefined>;
    try {
      answer = this.inner.authenticateToken(token, audiences);
    } catch (err) {
      this.remember(key, undefined, err);
      throw err;
    }
    if (!(answer instanceof Promise)) {
      this.remember(key, answer);
      return answer;
    }
    const p = answer.then(
      (r) => {
        this.inflight.delete(key);
        this.remember(key, r);
        return r;
      },
      (err: unknown) => {
        this.inflight.delete(key);
        this.remember(key, undefined, err);
        throw err;
      },
    );
    this.inflight.set(key, p);
    return p;
  }

  private remember(key: string, result: AuthenticationResult | undefined, error?: unknown): void {
    if (error !== undefined && this.options.cacheErrors === false) return;
    const ttl = result && error === undefined ? this.options.successTtlMs : this.options.failureTtlMs;
    if (ttl <= 0) return;
    // Every entry lives as long as the others of its kind, so the first in the map expires first.
    while (this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { expires: this.now() + ttl, result, ...(error !== undefined ? { error } : {}) });
  }

  /** How many entries are kept (tests). */
  get size(): number {
    return this.entries.size;
  }
}
