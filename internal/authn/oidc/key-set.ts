/**
 * The issuer's signing keys (its jwks_uri), cached. The set is fetched again when a token names a
 * key id the cache does not have (the issuer rotated its keys), as go-oidc's remote key set does,
 * with concurrent fetches shared and such fetches at most one per minIntervalMs, so tokens with
 * made-up key ids cannot make the server hammer the issuer.
 */
import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';

/** One usable public key. */
export interface SigningKey {
  readonly kid?: string;
  readonly key: KeyObject;
}

/** Fetches the raw JWKS document. */
export type JWKSFetcher = () => Promise<unknown>;

/** Turns a JWKS document into signing keys; keys for encryption or of unknown types are skipped. */
export function parseJWKS(doc: unknown): SigningKey[] {
  const keys = (doc as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new Error('oidc: failed to decode keys: no "keys" list');
  const out: SigningKey[] = [];
  for (const jwk of keys as Array<Record<string, unknown>>) {
    if (typeof jwk !== 'object' || jwk === null) continue;
    if (jwk.use !== undefined && jwk.use !== 'sig') continue;
    if (jwk.kty !== 'RSA' && jwk.kty !== 'EC') continue;
    try {
      const key = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
      out.push({ ...(typeof jwk.kid === 'string' ? { kid: jwk.kid } : {}), key });
    } catch {
      // A key Node cannot read cannot verify anything; the others still can.
    }
  }
  return out;
}

/** The cached key set of one issuer. */
export class RemoteKeySet {
  private keys: readonly SigningKey[] = [];
  private inflight: Promise<void> | undefined;
  private lastOnDemand = -Infinity;
  /** How many times the set was fetched (metrics, tests). */
  fetches = 0;

  constructor(
    private readonly fetch: JWKSFetcher,
    private readonly minIntervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached keys a token with this key id may be signed with (every key when it names none). */
  candidates(kid: string | undefined): readonly SigningKey[] {
    return kid === undefined ? this.keys : this.keys.filter((k) => k.kid === kid);
  }

  /** Fetches the set now (sharing a fetch in flight); rejects when the issuer cannot be read. */
  refresh(): Promise<void> {
    if (this.inflight) return this.inflight;
    this.fetches++;
    const p = this.fetch()
      .then((doc) => {
        this.keys = parseJWKS(doc);
      })
      .finally(() => {
        this.inflight = undefined;
      });
    this.inflight = p;
    return p;
  }

  /**
   * Fetches the set again for a token whose key the cache lacks, unless such a fetch happened less
   * than minIntervalMs ago; a fetch already in flight is joined instead. Resolves whether the keys
   * may have changed.
   */
  async refreshForUnknownKey(): Promise<boolean> {
    if (this.inflight) {
      await this.inflight;
      return true;
    }
    const now = this.now();
    if (now - this.lastOnDemand < this.minIntervalMs) return false;
    this.lastOnDemand = now;
    await this.refresh();
    return true;
  }
}
