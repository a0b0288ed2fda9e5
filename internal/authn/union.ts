/**
 * Unions: several authenticators asked in order as one. The first to name a user wins; errors of
 * the ones before it are forgotten; when none names a user, their errors (if any) are the answer,
 * so a presented but invalid credential is a 401 rather than a fall-through (kube's union with
 * FailOnError off, then the anonymous authenticator behind it with FailOnError on).
 */
import type { IncomingMessage } from 'node:http';
import { AuthenticationError, type AuthenticationResult, type Authenticator, type TokenAuthenticator } from './interface.js';

function aggregate(errors: readonly unknown[]): AuthenticationError {
  const messages = errors.map((e) => (e instanceof Error ? e.message : String(e)));
  return new AuthenticationError(messages.length === 1 ? (messages[0] as string) : `[${messages.join(', ')}]`);
}

/** Asks each authenticator in order; itself an Authenticator. */
export class UnionAuthenticator implements Authenticator {
  constructor(readonly members: readonly Authenticator[]) {}

  async authenticate(req: IncomingMessage): Promise<AuthenticationResult | undefined> {
    let errors: unknown[] | undefined;
    for (const a of this.members) {
      try {
        const r = await a.authenticate(req);
        if (r) return r;
      } catch (err) {
        (errors ??= []).push(err);
      }
    }
    if (errors) throw aggregate(errors);
    return undefined;
  }
}

/** Asks each token authenticator in order; itself a TokenAuthenticator. */
export class UnionTokenAuthenticator implements TokenAuthenticator {
  constructor(readonly members: readonly TokenAuthenticator[]) {}

  async authenticateToken(token: string, audiences: readonly string[]): Promise<AuthenticationResult | undefined> {
    let errors: unknown[] | undefined;
    for (const a of this.members) {
      try {
        const r = await a.authenticateToken(token, audiences);
        if (r) return r;
      } catch (err) {
        (errors ??= []).push(err);
      }
    }
    if (errors) throw aggregate(errors);
    return undefined;
  }
}
