/**
 * The reference's model of kube's impersonation filter (from the "User impersonation" section of
 * the authentication documentation and the authentication.k8s.io/v1 header names): which
 * 'impersonate' checks a request with Impersonate-* headers needs, in kube's order, and the
 * identity the request then acts as.
 */
import type { RequestAttributes, UserInfo } from './rbac-reference.js';

/** The impersonation a request asks for (well-formed: a user is always named). */
export interface Impersonation {
  readonly user: string;
  readonly groups: readonly string[];
  /** At most one Impersonate-Extra-<key> header (kube walks several in map order, unordered); key as sent. */
  readonly extra?: { readonly key: string; readonly values: readonly string[] };
  readonly uid?: string;
}

const serviceAccountUser = /^system:serviceaccount:([^:]*):([^:]*)$/;
const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The namespace and name of a service account's user name, when both are valid (a namespace is a DNS label, a name a DNS subdomain). */
function splitServiceAccount(user: string): [string, string] | undefined {
  const m = serviceAccountUser.exec(user);
  if (!m) return undefined;
  const [ns, name] = [m[1] as string, m[2] as string];
  if (ns.length > 63 || !dns1123Label.test(ns) || name.length > 253 || !dns1123Subdomain.test(name)) return undefined;
  return [ns, name];
}

/**
 * The 'impersonate' checks in the order kube makes them (user or service account, each group,
 * each extra value, the uid), and the identity the request acts as once all pass: a service
 * account named without groups gets its fixed groups; a named user gets system:authenticated
 * unless system:authenticated or system:unauthenticated is among its groups; system:anonymous
 * gets system:unauthenticated.
 */
export function impersonationChecks(requestor: UserInfo, imp: Impersonation): { checks: RequestAttributes[]; actAs: UserInfo } {
  const base = { kind: 'resource' as const, user: requestor, verb: 'impersonate', subresource: '', namespace: '' };
  const checks: RequestAttributes[] = [];
  let groups: string[] = [];
  const sa = splitServiceAccount(imp.user);
  if (sa) {
    checks.push({ ...base, apiGroup: '', resource: 'serviceaccounts', namespace: sa[0], name: sa[1] });
    if (imp.groups.length === 0) groups = ['system:serviceaccounts', `system:serviceaccounts:${sa[0]}`];
  } else {
    checks.push({ ...base, apiGroup: '', resource: 'users', name: imp.user });
  }
  for (const g of imp.groups) {
    checks.push({ ...base, apiGroup: '', resource: 'groups', name: g });
    groups.push(g);
  }
  // The extra's key is the header name's rest, lowercased (header names are case-insensitive) and percent-decoded.
  const key = decodeURIComponent((imp.extra?.key ?? '').toLowerCase());
  for (const v of imp.extra?.values ?? []) checks.push({ ...base, apiGroup: 'authentication.k8s.io', resource: 'userextras', subresource: key, name: v });
  if (imp.uid !== undefined) checks.push({ ...base, apiGroup: 'authentication.k8s.io', resource: 'uids', name: imp.uid });
  if (imp.user !== 'system:anonymous') {
    if (!groups.includes('system:authenticated') && !groups.includes('system:unauthenticated')) groups.push('system:authenticated');
  } else if (!groups.includes('system:unauthenticated')) {
    groups.push('system:unauthenticated');
  }
  return { checks, actAs: { name: imp.user, groups } };
}

/** The request headers that ask for imp. */
export function impersonationHeaders(imp: Impersonation): Record<string, string | string[]> {
  const h: Record<string, string | string[]> = { 'Impersonate-User': imp.user };
  if (imp.groups.length > 0) h['Impersonate-Group'] = [...imp.groups];
  if (imp.extra) h[`Impersonate-Extra-${imp.extra.key}`] = [...imp.extra.values];
  if (imp.uid !== undefined) h['Impersonate-Uid'] = imp.uid;
  return h;
}
