/**
 * The authentication filter: asks the server's authenticator (the union of every configured method,
 * with the anonymous fallback when --anonymous-auth is on) who made the request and records the user
 * in the request context. A presented but invalid credential, or no user at all with anonymous
 * requests off, is answered 401 Unauthorized with kube's Status; the reason is logged, never sent.
 */
import type { IncomingMessage } from 'node:http';
import { StatusError } from '../apierrors/status-error.js';
import { hasSpaceBeforeBearerToken, spaceBeforeTokenWarning } from '../authn/bearer-token.js';
import { AuthenticationError, type AuthenticationResult, type Authenticator, type MaybePromise } from '../authn/interface.js';
import type { Logger } from '../observability/logging.js';
import { addWarning } from '../request/context.js';
import type { Filter } from './interface.js';
import type { RequestState } from './request-context.js';

/** kube's answer to a request it could not authenticate. */
export function newUnauthorized(message = 'Unauthorized'): StatusError {
  return new StatusError(401, 'Unauthorized', message);
}

/** What the filter needs. */
export interface AuthenticationFilterDeps {
  readonly authenticator: Authenticator;
  readonly log?: Logger;
  /**
   * Told of every attempt (metrics): the outcome as kube labels it ("error": a credential was
   * presented and is invalid; "failure": no user, i.e. no credential and anonymous requests off),
   * how long it took, and on success the user's name. Must not throw.
   */
  readonly observe?: (result: 'success' | 'failure' | 'error', seconds: number, username?: string) => void;
}

/** Builds the authentication filter. Synchronous when the authenticator answers synchronously. */
export function withAuthentication(deps: AuthenticationFilterDeps): Filter {
  const elapsed = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;
  const refuse = (err: unknown, start: bigint, state: RequestState): never => {
    deps.observe?.('error', elapsed(start));
    if (err instanceof AuthenticationError && err.auditAnnotations) state.ctx.authenticationAnnotations = err.auditAnnotations;
    deps.log?.v(2, `Unable to authenticate the request: ${(err as Error).message}`);
    throw newUnauthorized();
  };
  const accept = (req: IncomingMessage, result: AuthenticationResult | undefined, state: RequestState, start: bigint): void => {
    // The bearer authenticator ignored a `Bearer  <token>` header when nothing before it
    // (request headers, x509) found the user: the request goes on as anonymous, with kube's warning.
    if (result?.user.name === 'system:anonymous' && hasSpaceBeforeBearerToken(req)) addWarning(state.ctx, spaceBeforeTokenWarning);
    if (!result) {
      deps.observe?.('failure', elapsed(start));
      throw newUnauthorized();
    }
    deps.observe?.('success', elapsed(start), result.user.name);
    state.ctx.user = result.user;
    if (result.auditAnnotations) state.ctx.authenticationAnnotations = result.auditAnnotations;
    if (result.warnings) for (const w of result.warnings) addWarning(state.ctx, w);
  };
  return (req, _res, state) => {
    const start = deps.observe ? process.hrtime.bigint() : 0n;
    let answer: MaybePromise<AuthenticationResult | undefined>;
    try {
      answer = deps.authenticator.authenticate(req);
    } catch (err) {
      return refuse(err, start, state);
    }
    if (answer instanceof Promise) {
      return answer.then(
        (result) => accept(req, result, state, start),
        (err: unknown) => refuse(err, start, state),
      );
    }
    accept(req, answer, state, start);
    return undefined;
  };
}
