/**
 * Unions: several authenticators asked in order as one. The first to name a user wins; errors of
 * the ones before it are forgotten; when none names a user, their errors (if any) are the answer,
 * so a presented but invalid credential is a 401 rather than a fall-through (kube's union with
 * FailOnError off, then the anonymous authenticator behind it with FailOnError on).
 */
import type { IncomingMessage } from 'node:http';
import { AuthenticationError, type AuthenticationResult, type Authenticator, type MaybePromise, type TokenAuthenticator } from './interface.js';

function aggregate(errors: readonly unknown[]): AuthenticationError {
  const messages = errors.map((e) => (e instanceof Error ? e.message : String(e)));
  // The audit annotations the failed attempts made are all kept (kube adds them to the context).
  let annotations: Record<string, string> | undefined;
  for (const e of errors) if (e instanceof AuthenticationError && e.auditAnnotations) annotations = { ...annotations, ...e.auditAnnotations };
  return new AuthenticationError(messages.length === 1 ? (messages[0] as string) : `[${messages.join(', ')}]`, annotations);
}

/** Asks each authenticator in order; itself an Authenticator. */
export class UnionAuthenticator implements Authenticator {
  constructor(readonly members: readonly Authenticator[]) {}

  /**
   * Synchronous while the members answer synchronously (client certificates decided for the
   * connection, no credential at all): no promise per request on the common path; a member's
   * promise (a bearer token) switches the rest of the walk to async.
   */
  authenticate(req: IncomingMessage): MaybePromise<AuthenticationResult | undefined> {
    let errors: unknown[] | undefined;
    for (let i = 0; i < this.members.length; i++) {
      let r: MaybePromise<AuthenticationResult | undefined>;
      try {
        r = (this.members[i] as Authenticator).authenticate(req);
      } catch (err) {
        (errors ??= []).push(err);
        continue;
      }
      if (r instanceof Promise) return this.continueAsync(req, r, i, errors);
      if (r) return r;
    }
    if (errors) throw aggregate(errors);
    return undefined;
  }

  private async continueAsync(
    req: IncomingMessage,
    pending: Promise<AuthenticationResult | undefined>,
    index: number,
    earlier: unknown[] | undefined,
  ): Promise<AuthenticationResult | undefined> {
    let errors = earlier;
    try {
      const r = await pending;
      if (r) return r;
    } catch (err) {
      (errors ??= []).push(err);
    }
    for (let i = index + 1; i < this.members.length; i++) {
      try {
        const r = await (this.members[i] as Authenticator).authenticate(req);
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
