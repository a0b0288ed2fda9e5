/**
 * Campaign support (fuzz-requests): who a request is, as kube-apiserver decides it, written
 * independently of the server: the authenticators in kube's union order (x509, then bearer
 * tokens), 401 when every one failed with an error, the impersonation filter's 400 for groups,
 * uid or extras without a user, 403 for an impersonator without the permission, and the RBAC
 * fixtures' grants for the identity that results.
 */
import fc from 'fast-check';
import { headerValue } from './fuzz-requests-gens.js';

/** The certificate a request presents (by the fixture's name) or none. */
export type CertName = 'admin' | 'reader' | 'impersonator' | 'foreign' | 'expired' | 'notYetValid' | 'emptyCn' | 'unicode' | 'chained' | 'none';

/** One identity case: certificate, Authorization header, Impersonate-* headers. */
export interface IdentityCase {
  readonly cert: CertName;
  readonly authorization: string | undefined;
  readonly users: readonly string[];
  readonly groups: readonly string[];
  readonly uids: readonly string[];
  readonly extras: ReadonlyArray<readonly [string, string]>;
  /** What the request does: list or create ConfigMaps in the fuzz namespace, or list them in default. */
  readonly action: 'list-fuzz' | 'list-default' | 'create-fuzz';
}

/** The fixture's static token. */
export const fuzzToken = 'fuzz-token-0123456789';

const certUser: Record<CertName, { user?: string; groups?: string[]; error?: boolean }> = {
  admin: { user: 'fuzz-admin', groups: ['system:masters'] },
  reader: { user: 'fuzz-reader', groups: [] },
  impersonator: { user: 'fuzz-impersonator', groups: [] },
  unicode: { user: 'unicode', groups: [] },
  // kube's CommonNameUserConversion has no opinion on an empty CN: the request goes on as anonymous.
  emptyCn: {},
  foreign: { error: true },
  expired: { error: true },
  notYetValid: { error: true },
  chained: { error: true },
  none: {},
};

const ascii = fc.constantFrom('fuzz-reader', 'fuzz-admin', 'system:admin', 'system:anonymous', 'system:serviceaccount:fuzz:default', 'bob');
const groupNames = fc.constantFrom('system:masters', 'system:authenticated', 'devs', '');

/** The identity cases. */
export const identityCase: fc.Arbitrary<IdentityCase> = fc.record({
  cert: fc.constantFrom<CertName>('admin', 'reader', 'impersonator', 'impersonator', 'foreign', 'expired', 'notYetValid', 'emptyCn', 'unicode', 'chained', 'none'),
  authorization: fc.option(fc.oneof(fc.constantFrom(`Bearer ${fuzzToken}`, 'Bearer ', 'Bearer', 'Basic Zm9vOmJhcg==', 'bearer x', 'Bearer a b', `Bearer ${'z'.repeat(5000)}`), fc.string({ minLength: 1, maxLength: 30 }).map((s) => `Bearer ${s}`), headerValue), { nil: undefined }),
  users: fc.array(fc.oneof(ascii, headerValue), { maxLength: 2 }),
  groups: fc.array(fc.oneof(groupNames, headerValue), { maxLength: 3 }),
  uids: fc.array(fc.oneof(fc.constantFrom('uid-1', ''), headerValue), { maxLength: 2 }),
  extras: fc.array(fc.tuple(fc.constantFrom('scopes', 'acme.com%2Fproject', 'reason'), fc.oneof(fc.constantFrom('a', ''), headerValue)), { maxLength: 2 }),
  action: fc.constantFrom<IdentityCase['action']>('list-fuzz', 'list-default', 'create-fuzz'),
});

/** The header pairs the case sends (repeated names repeated). */
export function identityHeaders(c: IdentityCase): Array<[string, string]> {
  return [
    ...(c.authorization !== undefined ? ([['Authorization', c.authorization]] as Array<[string, string]>) : []),
    ...c.users.map((u): [string, string] => ['Impersonate-User', u]),
    ...c.groups.map((g): [string, string] => ['Impersonate-Group', g]),
    ...c.uids.map((u): [string, string] => ['Impersonate-Uid', u]),
    ...c.extras.map(([k, v]): [string, string] => [`Impersonate-Extra-${k}`, v]),
  ];
}

/** Whether a header value survives HTTP/1.1 parsing unchanged (no control bytes, no edge whitespace). */
export function cleanHeaderValue(v: string): boolean {
  return !/[\u0000-\u0008\u000a-\u001f\u007f]/.test(v) && v === v.trim();
}

/** The status kube gives the case, decided from the model above. */
export function expectedStatus(c: IdentityCase): number {
  const fromCert = certUser[c.cert];
  let user = fromCert.user;
  let groups = fromCert.groups ?? [];
  const auth = c.authorization;
  let authError = fromCert.error === true;
  if (user === undefined && auth !== undefined) {
    // kube's bearertoken: the trimmed header split in at most three on spaces; the scheme is
    // case-insensitive; an empty token is no opinion, an unknown one an error.
    const parts = auth.trim().split(' ');
    const token = parts.length >= 2 && parts[0]?.toLowerCase() === 'bearer' ? (parts[1] ?? '') : '';
    if (token === fuzzToken) {
      user = 'token-user';
      groups = [];
      authError = false;
    } else if (token !== '') authError = true;
  }
  if (user === undefined && authError) return 401;
  user ??= 'system:anonymous';
  // Go's Header.Get: the first Impersonate-User; an empty one is no impersonation.
  const impUser = (c.users[0] ?? '').trim();
  const hasUser = impUser !== '';
  // Any Impersonate-Group or Impersonate-Extra-* header counts, even empty; a uid only when the first is not empty.
  const asking = c.groups.length > 0 || (c.uids[0] ?? '').trim() !== '' || c.extras.length > 0;
  if (!hasUser && asking) return 400;
  if (hasUser) {
    // The impersonator's role covers users, groups, uids and extras, but not service accounts.
    const serviceAccount = /^system:serviceaccount:[^:]+:[^:]+$/.test(impUser);
    const mayImpersonate = groups.includes('system:masters') || (user === 'fuzz-impersonator' && !serviceAccount);
    if (!mayImpersonate) return 403;
    user = impUser;
    groups = c.groups.map((g) => g.trim());
  }
  const masters = groups.includes('system:masters');
  if (masters) return c.action === 'create-fuzz' ? 201 : 200;
  if (c.action === 'list-fuzz' && user === 'fuzz-reader') return 200;
  return 403;
}
