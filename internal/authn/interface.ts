/**
 * Authentication: who is making a request. An Authenticator looks at a request (its TLS peer
 * certificate, its headers) and answers with a user, with no opinion (it found no credential of its
 * kind), or throws an AuthenticationError (a credential of its kind was presented and is invalid).
 * Several compose as a union that is itself an Authenticator (union.ts); bearer-token methods
 * implement TokenAuthenticator and are joined into one request authenticator by bearer-token.ts.
 */
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../request/context.js';

/** A successful authentication. */
export interface AuthenticationResult {
  readonly user: UserInfo;
  /**
   * The audiences the credential was accepted for (kube's authenticator.Response.Audiences): the
   * intersection of the token's audiences with the ones asked for. Absent when the method has none.
   */
  readonly audiences?: readonly string[];
  /**
   * Audit annotations the method adds to the request's event (kube's audit.AddAuditAnnotation
   * during authentication: authentication.k8s.io/stale-token, legacy-token-*). Absent: none.
   */
  readonly auditAnnotations?: Readonly<Record<string, string>>;
  /** Warnings for the client (`Warning: 299` headers), e.g. for an auto-generated legacy token. */
  readonly warnings?: readonly string[];
}

/**
 * A credential was presented and is not valid (bad signature, expired, unknown key id, revoked
 * service account, certificate from an unknown authority, ...). The request is answered 401;
 * the message is for logs and TokenReview status, never shown to the client of a normal request.
 */
export class AuthenticationError extends Error {
  constructor(
    message: string,
    /** Audit annotations the failed attempt still records (authentication.k8s.io/legacy-token-invalidated). */
    readonly auditAnnotations?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'AuthenticationError';
  }
}

/** What a synchronous or asynchronous authenticator answers; undefined is "no opinion". */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Authenticates a whole request. Must not consume the body; must not mutate the request except
 * to remove headers it consumed (kube strips front-proxy headers). May be called concurrently.
 */
export interface Authenticator {
  authenticate(req: IncomingMessage): MaybePromise<AuthenticationResult | undefined>;
}

/**
 * Authenticates a bearer token. audiences are the audiences the token must be valid for (the
 * server's --api-audiences for a normal request, TokenReview's spec.audiences for a review); an
 * empty list means "the server's default". Returns undefined when the token is not of its kind
 * (a JWT from another issuer, an unknown static token), throws AuthenticationError when it is
 * of its kind but invalid.
 */
export interface TokenAuthenticator {
  authenticateToken(token: string, audiences: readonly string[]): MaybePromise<AuthenticationResult | undefined>;
}
