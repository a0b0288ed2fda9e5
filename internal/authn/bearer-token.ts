/**
 * The bearer token request authenticator: takes `Authorization: Bearer <token>` and asks the token
 * authenticators (one union) about it with the server's --api-audiences. No header, another scheme
 * or an empty token is no opinion; a token nobody accepts is invalid (401). On success the header
 * is removed from the request, as kube does, so nothing downstream sees the credential.
 */
import type { IncomingMessage } from 'node:http';
import { AuthenticationError, type AuthenticationResult, type Authenticator, type MaybePromise, type TokenAuthenticator } from './interface.js';

/** The token of an `Authorization: Bearer` header, or undefined. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const text = h.trim();
  const space = text.indexOf(' ');
  if (space < 0 || text.slice(0, space).toLowerCase() !== 'bearer') return undefined;
  const token = text.slice(space + 1).trim();
  return token.length > 0 ? token : undefined;
}

/** Authenticates requests by their bearer token. */
export class BearerTokenAuthenticator implements Authenticator {
  constructor(
    private readonly tokens: TokenAuthenticator,
    private readonly apiAudiences: readonly string[],
  ) {}

  /** Synchronous without a token, and with one the token methods answer synchronously (the token cache). */
  authenticate(req: IncomingMessage): MaybePromise<AuthenticationResult | undefined> {
    const token = bearerToken(req);
    if (token === undefined) return undefined;
    const r = this.tokens.authenticateToken(token, this.apiAudiences);
    return r instanceof Promise ? r.then((x) => accepted(req, x)) : accepted(req, r);
  }
}

/** A token's answer as the request's: a token nobody accepts is invalid; an accepted one leaves the request. */
function accepted(req: IncomingMessage, r: AuthenticationResult | undefined): AuthenticationResult {
  if (!r) throw new AuthenticationError('invalid bearer token');
  delete req.headers.authorization;
  return r;
}
