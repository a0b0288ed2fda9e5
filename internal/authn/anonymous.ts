/**
 * The anonymous authenticator (--anonymous-auth, on by default): a request no other authenticator
 * claims, and that presented no invalid credential, is system:anonymous in system:unauthenticated.
 * It sits behind the union and never hides the union's errors (kube's FailOnError union).
 */
import type { IncomingMessage } from 'node:http';
import { anonymousUser } from '../request/context.js';
import type { AuthenticationResult, Authenticator, MaybePromise } from './interface.js';

const anonymous: AuthenticationResult = { user: anonymousUser };

/** Answers with the anonymous user when inner has no opinion; inner's errors pass through. */
export class WithAnonymous implements Authenticator {
  constructor(private readonly inner: Authenticator) {}

  /** Synchronous when inner answers synchronously. */
  authenticate(req: IncomingMessage): MaybePromise<AuthenticationResult | undefined> {
    const r = this.inner.authenticate(req);
    return r instanceof Promise ? r.then((x) => x ?? anonymous) : (r ?? anonymous);
  }
}
