/**
 * Test support: a TokenAuthenticator over a fixed table of tokens, for servers under test (passed
 * as ServerOptions.extraTokenAuthenticators) and unit tests. Test code only.
 */
import { AuthenticationError, type AuthenticationResult, type TokenAuthenticator } from '../../internal/authn/interface.js';
import type { UserInfo } from '../../internal/request/context.js';

/** A token's entry: its user and audiences, or the error it is refused with. */
export type TestTokenEntry = { readonly user: UserInfo; readonly audiences?: readonly string[] } | { readonly error: string };

/** Answers from the table; an unknown token is no opinion. Records the audiences each call asked for. */
export class TestTokenAuthenticator implements TokenAuthenticator {
  readonly calls: Array<{ token: string; audiences: readonly string[] }> = [];

  constructor(private readonly tokens: Readonly<Record<string, TestTokenEntry>>) {}

  authenticateToken(token: string, audiences: readonly string[]): AuthenticationResult | undefined {
    this.calls.push({ token, audiences });
    const entry = Object.hasOwn(this.tokens, token) ? this.tokens[token] : undefined;
    if (!entry) return undefined;
    if ('error' in entry) throw new AuthenticationError(entry.error);
    return { user: entry.user, ...(entry.audiences ? { audiences: entry.audiences } : {}) };
  }
}

/** The tokens the review and impersonation tests use. */
export const testTokens: Readonly<Record<string, TestTokenEntry>> = {
  'alice-token': { user: { name: 'alice', uid: 'alice-uid', groups: ['devs'], extra: { scopes: ['read', 'write'] } } },
  'admin-token': { user: { name: 'admin', groups: ['system:masters'] } },
  'revoked-token': { error: 'token has been revoked' },
};
