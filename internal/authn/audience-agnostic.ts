/**
 * Audiences for token methods whose tokens carry no audience of the API server (static tokens,
 * OIDC ID tokens): kube's WrapAudienceAgnosticToken. Such a token is good for the server's own
 * --api-audiences only, so a request for other audiences gets no opinion, and a success carries
 * the audiences asked for that the server has.
 */
import type { AuthenticationResult, MaybePromise, TokenAuthenticator } from './interface.js';

/** The audiences both lists name, in the order of wanted. */
export function intersectAudiences(wanted: readonly string[], have: readonly string[]): string[] {
  return wanted.filter((a, i) => have.includes(a) && wanted.indexOf(a) === i);
}

/** Wraps inner; apiAudiences is read on every call (it may be filled after construction). */
export class AudienceAgnosticTokenAuthenticator implements TokenAuthenticator {
  constructor(
    private readonly inner: TokenAuthenticator,
    private readonly apiAudiences: readonly string[],
  ) {}

  authenticateToken(token: string, audiences: readonly string[]): MaybePromise<AuthenticationResult | undefined> {
    // An empty list means the server's default audiences; with none configured nothing is checked.
    const wanted = audiences.length > 0 ? audiences : this.apiAudiences;
    if (wanted.length === 0) return this.inner.authenticateToken(token, audiences);
    const auds = intersectAudiences(wanted, this.apiAudiences);
    if (auds.length === 0) return undefined;
    const r = this.inner.authenticateToken(token, audiences);
    const withAuds = (x: AuthenticationResult | undefined): AuthenticationResult | undefined => (x ? { ...x, audiences: auds } : undefined);
    return r instanceof Promise ? r.then(withAuds) : withAuds(r);
  }
}
