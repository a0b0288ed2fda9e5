/**
 * Audience-agnostic token methods (static tokens, bootstrap tokens) under --api-audiences, as kube
 * wraps them (WrapAudienceAgnosticToken): such a token is valid for the API's own audiences only.
 * Asked for audiences that do not meet --api-audiences (a TokenReview for another audience) it has
 * no opinion; otherwise its answer carries the audiences both share. Without --api-audiences it
 * answers as the method does.
 */
import type { AuthenticationResult, MaybePromise, TokenAuthenticator } from './interface.js';

/** The audiences both lists name, in the order of wanted, once each. */
export function intersectAudiences(wanted: readonly string[], have: readonly string[]): string[] {
  return wanted.filter((a, i) => have.includes(a) && wanted.indexOf(a) === i);
}

function withAudiences(r: AuthenticationResult | undefined, audiences: readonly string[]): AuthenticationResult | undefined {
  if (!r) return undefined;
  if (r.audiences && r.audiences.length > 0) throw new Error(`audience agnostic authenticator wrapped an authenticator that returned audiences: ${JSON.stringify(r.audiences)}`);
  return { ...r, audiences };
}

/** Wraps an audience-agnostic method; apiAudiences is read at each call (it may be filled late). */
export class AudienceAgnosticTokenAuthenticator implements TokenAuthenticator {
  constructor(
    private readonly inner: TokenAuthenticator,
    private readonly apiAudiences: readonly string[],
  ) {}

  authenticateToken(token: string, audiences: readonly string[]): MaybePromise<AuthenticationResult | undefined> {
    if (this.apiAudiences.length === 0) return this.inner.authenticateToken(token, audiences);
    const target = audiences.length > 0 ? audiences : this.apiAudiences;
    const shared = this.apiAudiences.filter((a) => target.includes(a));
    if (shared.length === 0) return undefined;
    const r = this.inner.authenticateToken(token, audiences);
    return r instanceof Promise ? r.then((x) => withAudiences(x, shared)) : withAudiences(r, shared);
  }
}
