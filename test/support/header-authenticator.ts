/**
 * Test support: an authenticator that believes the request's X-Test-User and X-Test-Groups
 * (comma-separated) headers, for tests that need several identities before a real credential
 * method serves them. Passed as ServerOptions.testAuthenticator; never used outside tests. The
 * user gets system:authenticated, as kube's authenticated-group adder would add it.
 */
import type { IncomingMessage } from 'node:http';
import type { AuthenticationResult, Authenticator } from '../../internal/authn/interface.js';

/** The headers a request carries to be authenticated as user, in groups. */
export function asUser(user: string, groups: readonly string[] = []): Record<string, string> {
  return { 'x-test-user': user, ...(groups.length > 0 ? { 'x-test-groups': groups.join(',') } : {}) };
}

/** The authenticator reading those headers (no opinion without them). */
export const headerAuthenticator: Authenticator = {
  authenticate(req: IncomingMessage): AuthenticationResult | undefined {
    const name = req.headers['x-test-user'];
    if (typeof name !== 'string' || name === '') return undefined;
    const raw = req.headers['x-test-groups'];
    const groups = typeof raw === 'string' && raw !== '' ? raw.split(',') : [];
    return { user: { name, groups: [...groups, 'system:authenticated'] } };
  },
};
