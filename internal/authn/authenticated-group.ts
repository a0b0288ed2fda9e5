/**
 * Adds system:authenticated to every user an authenticator names (kube's AuthenticatedGroupAdder),
 * unless the user is anonymous or already carries system:authenticated or system:unauthenticated.
 */
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../request/context.js';
import type { AuthenticationResult, Authenticator, MaybePromise } from './interface.js';

/** The group every authenticated user is in. */
export const authenticatedGroup = 'system:authenticated';

/** user with system:authenticated added when kube would add it (returns user itself otherwise). */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === 'system:anonymous') return user;
  if (user.groups.includes(authenticatedGroup) || user.groups.includes('system:unauthenticated')) return user;
  return { ...user, groups: [...user.groups, authenticatedGroup] };
}

/** Wraps an authenticator so its users get system:authenticated. */
export class AuthenticatedGroupAdder implements Authenticator {
  /**
   * Answers already extended, by the answer they extend: a method that answers a connection or a
   * token with one kept object (client certificates, the token cache) costs no copy per request.
   */
  private readonly extended = new WeakMap<AuthenticationResult, AuthenticationResult>();

  constructor(private readonly inner: Authenticator) {}

  /** Synchronous when inner answers synchronously. */
  authenticate(req: IncomingMessage): MaybePromise<AuthenticationResult | undefined> {
    const r = this.inner.authenticate(req);
    return r instanceof Promise ? r.then((x) => this.extend(x)) : this.extend(r);
  }

  private extend(r: AuthenticationResult | undefined): AuthenticationResult | undefined {
    if (!r) return undefined;
    let out = this.extended.get(r);
    if (!out) {
      const user = withAuthenticatedGroup(r.user);
      out = user === r.user ? r : { ...r, user };
      this.extended.set(r, out);
    }
    return out;
  }
}
