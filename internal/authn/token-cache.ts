/**
 * A caching token authenticator (kube's tokencache): remembers what the authenticator it wraps
 * answered for a token and audiences, a user for successTTL and "no user" for failureTTL, and
 * asks it only once for concurrent requests with the same token. Errors (an unreachable webhook)
 * are cached only when cacheErrors is set. Keys are HMAC-SHA256 of the audiences and the token
 * under a key made at start, so no token is kept in memory.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { AuthenticationResult, MaybePromise, TokenAuthenticator } from './interface.js';

/** How answers are cached. */
export interface TokenCacheOptions {
  /** How long a user stays cached (ms); 0 or less: not cached. */
  readonly successTTLMs: number;
  /** How long "no user" stays cached (ms); 0 or less: not cached. */
  readonly failureTTLMs: number;
  /** Whether errors are cached too (with failureTTL); kube's webhook cache does not. */
  readonly cacheErrors: boolean;
  /** Most entries kept; past it expired ones are swept, then the oldest dropped. Default 65536. */
  readonly maxEntries?: number;
  /** The clock (ms), for tests. */
  readonly now?: () => number;
}

interface Entry {
  readonly expires: number;
  readonly result: AuthenticationResult | undefined;
  readonly error?: unknown;
}

/** Wraps a token authenticator with a cache; itself a TokenAuthenticator. Safe for concurrent use. */
export class CachedTokenAuthenticator implements TokenAuthenticator {
  private readonly secret = randomBytes(32);
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<AuthenticationResult | undefined>>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(
    private readonly inner: TokenAuthenticator,
    private readonly options: TokenCacheOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 65536;
  }

  authenticateToken(token: string, audiences: readonly string[]): MaybePromise<AuthenticationResult | undefined> {
    const key = this.keyOf(token, audiences);
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
    const call = this.ask(key, token, audiences);
    this.inflight.set(key, call);
    return call;
  }

  /** Forgets every cached answer. */
  clear(): void {
    this.entries.clear();
  }

  private async ask(key: string, token: string, audiences: readonly string[]): Promise<AuthenticationResult | undefined> {
    try {
      const result = await this.inner.authenticateToken(token, audiences);
      const ttl = result ? this.options.successTTLMs : this.options.failureTTLMs;
      if (ttl > 0) this.store(key, { expires: this.now() + ttl, result });
      return result;
    } catch (error) {
      if (this.options.cacheErrors && this.options.failureTTLMs > 0) this.store(key, { expires: this.now() + this.options.failureTTLMs, result: undefined, error });
      throw error;
    } finally {
      this.inflight.delete(key);
    }
  }

  private store(key: string, entry: Entry): void {
    if (this.entries.size >= this.maxEntries) {
      const now = this.now();
      for (const [k, e] of this.entries) if (e.expires <= now) this.entries.delete(k);
      // Still full of live entries: drop the oldest (Map keeps insertion order).
      for (const k of this.entries.keys()) {
        if (this.entries.size < this.maxEntries) break;
        this.entries.delete(k);
      }
    }
    this.entries.set(key, entry);
  }

  private keyOf(token: string, audiences: readonly string[]): string {
    const h = createHmac('sha256', this.secret);
    // Length-prefixed, so no audience list and token can collide with another.
    for (const a of audiences) h.update(`${a.length}:${a}`);
    h.update(`|${token}`);
    return h.digest('base64');
  }
}
