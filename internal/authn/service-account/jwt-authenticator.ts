/**
 * The JWT half of service account authentication (kube's jwtTokenAuthenticator), shared by bound
 * and legacy tokens: a token whose "iss" is not one of the authenticator's issuers is no opinion;
 * otherwise its signature must verify against the key its kid names, its audiences must meet the
 * requested ones (a token without audiences stands for the API audiences), and the validator then
 * checks the claims and names the user. Signatures verified once are remembered per token string
 * (bounded), so the hot path of a known token is a map lookup plus the validator's lookups.
 */
import { AuthenticationError, type AuthenticationResult, type TokenAuthenticator } from '../interface.js';
import { decodeJwt, verifySignature } from '../../serviceaccount/jwt.js';
import type { PublicKeyEntry } from '../../serviceaccount/keys.js';
import { serviceAccountUser, type ServiceAccountInfo } from './user-info.js';

/** Checks the claims of a token whose issuer, signature and audiences are good. Throws on invalid. */
export interface TokenClaimsValidator {
  validate(token: string, claims: Readonly<Record<string, unknown>>): Promise<ServiceAccountInfo>;
}

interface Verified {
  readonly iss: string;
  readonly claims: Readonly<Record<string, unknown>>;
}

/** Tokens whose signature verified, by token string; shared by the authenticators of one key set. */
export class VerifiedTokens {
  private readonly entries = new Map<string, Verified>();

  constructor(
    private readonly keys: readonly PublicKeyEntry[],
    private readonly maxEntries = 4096,
  ) {}

  /**
   * The claims of token when its issuer is in issuers and its signature verifies; undefined when
   * it is not such a token (no opinion); throws AuthenticationError for a bad signature or kid.
   */
  claimsOf(token: string, issuers: ReadonlySet<string>): Readonly<Record<string, unknown>> | undefined {
    const hit = this.entries.get(token);
    if (hit) return issuers.has(hit.iss) ? hit.claims : undefined;
    const decoded = decodeJwt(token);
    const iss = decoded?.claims.iss;
    if (!decoded || typeof iss !== 'string' || !issuers.has(iss)) return undefined;
    try {
      verifySignature(decoded, this.keys);
    } catch (err) {
      throw new AuthenticationError((err as Error).message);
    }
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(token, { iss, claims: decoded.claims });
    return decoded.claims;
  }
}

/** Go's %q of a string list: ["a" "b"]. */
function quoteList(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

function audiencesOf(claims: Readonly<Record<string, unknown>>): string[] {
  const aud = claims.aud;
  if (aud === undefined || aud === null) return [];
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud) && aud.every((a) => typeof a === 'string')) return aud as string[];
  throw new AuthenticationError('go-jose/go-jose/jwt: expected string or array value to unmarshal to Audience');
}

/** A token authenticator for one kind of service account token. */
export class ServiceAccountJwtAuthenticator implements TokenAuthenticator {
  private readonly issuers: ReadonlySet<string>;

  constructor(
    issuers: readonly string[],
    private readonly verified: VerifiedTokens,
    /** The API audiences: what a token without audiences, and a request without any, stand for. */
    private readonly implicitAudiences: readonly string[],
    private readonly validator: TokenClaimsValidator,
  ) {
    this.issuers = new Set(issuers);
  }

  async authenticateToken(token: string, audiences: readonly string[]): Promise<AuthenticationResult | undefined> {
    const claims = this.verified.claimsOf(token, this.issuers);
    if (!claims) return undefined;
    let tokenAudiences = audiencesOf(claims);
    if (tokenAudiences.length === 0) tokenAudiences = [...this.implicitAudiences];
    const requested = audiences.length > 0 ? audiences : this.implicitAudiences;
    const accepted = tokenAudiences.filter((a) => requested.includes(a));
    if (accepted.length === 0 && this.implicitAudiences.length !== 0) {
      throw new AuthenticationError(`token audiences ${quoteList(tokenAudiences)} is invalid for the target audiences ${quoteList(requested)}`);
    }
    let info: ServiceAccountInfo;
    try {
      info = await this.validator.validate(token, claims);
    } catch (err) {
      throw err instanceof AuthenticationError ? err : new AuthenticationError((err as Error).message);
    }
    return {
      user: serviceAccountUser(info),
      audiences: accepted,
      ...(info.auditAnnotations ? { auditAnnotations: info.auditAnnotations } : {}),
      ...(info.warnings ? { warnings: info.warnings } : {}),
    };
  }
}
