/**
 * How a TokenReview authenticates its token, as kube's request path would (the review hands its
 * authenticator a request carrying nothing but `Authorization: Bearer <token>`): the bearer
 * token is the header's second space-separated word; every token method is asked for the review's
 * audiences (the server's --api-audiences when it names none); a token nobody claims is
 * "invalid bearer token"; the methods' own errors are the answer otherwise, never more; a user
 * gets system:authenticated. A method that reports no audiences is audience-agnostic and is
 * treated as kube's WrapAudienceAgnosticToken treats it: valid for the requested audiences it
 * shares with the server's, not valid at all when it shares none.
 */
import { withAuthenticatedGroup } from '../../../authn/authenticated-group.js';
import type { BuiltAuthentication } from '../../../authn/build.js';
import type { UserInfo } from '../../../request/context.js';

/** What the review learned about the token. */
export interface TokenReviewOutcome {
  /** The user, with system:authenticated, when the token is valid. */
  readonly user?: UserInfo;
  /** The audiences the token is valid for (with user). */
  readonly audiences?: readonly string[];
  /** Why the token is not valid, in the methods' words. */
  readonly error?: string;
  /** The token is valid but for none of the audiences asked (kube answers 500). */
  readonly audienceMismatch?: boolean;
}

/** kube's bearer-token authenticator error for a token no method claims. */
export const invalidBearerToken = 'invalid bearer token';

/** The token kube's bearer authenticator reads from `Bearer <token>` (may be empty). */
export function bearerWord(token: string): string {
  const header = `Bearer ${token}`.trim();
  return header.split(' ', 3)[1] ?? '';
}

function intersect(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x) => b.includes(x));
}

/** Authenticates token for a TokenReview asking for audiences (empty: the server's). */
export async function authenticateForReview(authn: BuiltAuthentication, token: string, audiences: readonly string[]): Promise<TokenReviewOutcome> {
  const bearer = bearerWord(token);
  // No bearer credential at all: kube's request authenticators have nothing to judge.
  if (bearer === '') return {};
  const auds = audiences.length > 0 ? audiences : authn.apiAudiences;
  let result;
  try {
    result = await authn.tokenAuthenticator.authenticateToken(bearer, auds);
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
  if (!result) return { error: invalidBearerToken };
  let granted = result.audiences;
  if (granted === undefined) {
    granted = authn.apiAudiences.length > 0 ? intersect(authn.apiAudiences, auds) : [];
    if (authn.apiAudiences.length > 0 && granted.length === 0) return { error: invalidBearerToken };
  }
  if (auds.length > 0 && intersect(auds, granted).length === 0) return { audienceMismatch: true };
  return { user: withAuthenticatedGroup(result.user), audiences: granted };
}
