/**
 * The bearer token request authenticator: takes `Authorization: Bearer <token>` and asks the token
 * authenticators (one union) about it with the server's --api-audiences. No header, another scheme
 * or an empty token is no opinion; a token nobody accepts is invalid (401). On success the header
 * is removed from the request, as kube does, so nothing downstream sees the credential.
 */
import type { IncomingMessage } from 'node:http';
import { AuthenticationError, type AuthenticationResult, type Authenticator, type MaybePromise, type TokenAuthenticator } from './interface.js';

/** kube's warning for `Bearer  <token>` (two spaces): the header is ignored, not authenticated. */
export const spaceBeforeTokenWarning = 'the provided Authorization header contains extra space before the bearer token, and is ignored';

/** The scheme and token fields of the header as kube splits them: on single spaces, into at most three. */
function bearerFields(req: IncomingMessage): string[] | undefined {
  const text = req.headers.authorization?.trim();
  if (!text) return undefined;
  const first = text.indexOf(' ');
  if (first < 0 || text.slice(0, first).toLowerCase() !== 'bearer') return undefined;
  const second = text.indexOf(' ', first + 1);
  return second < 0 ? ['bearer', text.slice(first + 1)] : ['bearer', text.slice(first + 1, second), text.slice(second + 1)];
}

/**
 * The token of an `Authorization: Bearer` header, or undefined: the second space-separated field,
 * so `Bearer a b` presents `a` and `Bearer  a` (an empty field) presents none, as kube reads it.
 */
export function bearerToken(req: IncomingMessage): string | undefined {
  const token = bearerFields(req)?.[1];
  return token ? token : undefined;
}

/** Whether the header is `Bearer` with an extra space before its token (kube warns and ignores it). */
export function hasSpaceBeforeBearerToken(req: IncomingMessage): boolean {
  const fields = bearerFields(req);
  return fields !== undefined && fields[1] === '' && fields.length === 3;
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
