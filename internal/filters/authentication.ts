/**
 * The authentication filter: asks the server's authenticator (the union of every configured method,
 * with the anonymous fallback when --anonymous-auth is on) who made the request and records the user
 * in the request context. A presented but invalid credential, or no user at all with anonymous
 * requests off, is answered 401 Unauthorized with kube's Status; the reason is logged, never sent.
 */
import { StatusError } from '../apierrors/status-error.js';
import type { Authenticator } from '../authn/interface.js';
import type { Logger } from '../observability/logging.js';
import type { Filter } from './interface.js';

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

/** Builds the authentication filter. */
export function withAuthentication(deps: AuthenticationFilterDeps): Filter {
  return async (req, _res, state) => {
    const start = deps.observe ? process.hrtime.bigint() : 0n;
    let result;
    try {
      result = await deps.authenticator.authenticate(req);
    } catch (err) {
      deps.observe?.('error', Number(process.hrtime.bigint() - start) / 1e9);
      deps.log?.v(2, `Unable to authenticate the request: ${(err as Error).message}`);
      throw newUnauthorized();
    }
    if (!result) {
      deps.observe?.('failure', Number(process.hrtime.bigint() - start) / 1e9);
      throw newUnauthorized();
    }
    deps.observe?.('success', Number(process.hrtime.bigint() - start) / 1e9, result.user.name);
    state.ctx.user = result.user;
  };
}
