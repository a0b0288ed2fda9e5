/**
 * Requests aimed at a generated policy: pick a binding, one of its subjects and one rule of its
 * role, build the request that rule grants, then (often) change one thing about it (verb, group,
 * resource, subresource, name, namespace or identity). Purely random requests are mostly denied;
 * these probe both sides of each rule's edge.
 */
import fc from 'fast-check';
import { NAMESPACES, SERVED, TOKEN_IDENTITIES, type GeneratedPolicy, type HttpCase } from './authz-arbitraries.js';
import type { HttpTarget } from './authz-http.js';
import type { BindingObject, PolicyRule, RequestAttributes, Subject, UserInfo } from './rbac-reference.js';

const verbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'impersonate', 'bind', 'escalate', 'use'];
const groups = ['', 'apps', 'rbac.authorization.k8s.io', 'authentication.k8s.io', 'example.com', 'policy'];
const resources = ['pods', 'configmaps', 'deployments', 'namespaces', 'nodes', 'users', 'groups', 'roles', 'widgets'];

/** Random choices, as numbers, that a derivation consumes in order. */
type Picks = readonly number[];

function pick<T>(xs: readonly T[], n: number): T {
  return xs[n % xs.length];
}

function userFor(s: Subject, bindingNamespace: string): UserInfo {
  if (s.kind === 'User') return { name: s.name, groups: s.name === 'system:anonymous' ? ['system:unauthenticated'] : ['system:authenticated'] };
  if (s.kind === 'Group') return { name: 'u9', groups: [s.name, 'system:authenticated'] };
  const ns = s.namespace || bindingNamespace;
  return { name: `system:serviceaccount:${ns}:${s.name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'] };
}

function rulesOf(policy: GeneratedPolicy, b: BindingObject): readonly PolicyRule[] {
  const roles = b.roleRef.kind === 'Role' ? policy.roles.filter((r) => r.metadata.namespace === b.metadata.namespace) : policy.clusterRoles;
  return roles.find((r) => r.metadata.name === b.roleRef.name)?.rules ?? [];
}

/** The request rule grants (wildcards filled from the picks), for user in namespace ('' for a ClusterRoleBinding's choice). */
function granted(rule: PolicyRule, user: UserInfo, namespace: string, p: Picks): RequestAttributes {
  const verb = rule.verbs.includes('*') ? pick(verbs, p[0]) : pick(rule.verbs, p[0]);
  if (rule.nonResourceURLs?.length) {
    const url = pick(rule.nonResourceURLs, p[1]);
    const path = url === '*' ? '/anything' : url.endsWith('*') ? `${url.replace(/\*+$/, '')}${p[2] % 2 ? 'x' : ''}` : url;
    return { kind: 'nonResource', user, verb, path };
  }
  const apiGroup = pick(rule.apiGroups ?? [''], p[1]) === '*' ? pick(groups, p[2]) : pick(rule.apiGroups ?? [''], p[1]);
  const r = pick(rule.resources ?? ['pods'], p[3]);
  const [res, sub = ''] = r.split('/', 2);
  const resource = res === '*' ? pick(resources, p[4]) : res;
  const subresource = sub === '*' ? 'x' : sub;
  const name = rule.resourceNames?.length ? pick(rule.resourceNames, p[5]) : pick(['', 'fz-a'], p[5]);
  return { kind: 'resource', user, verb, apiGroup, resource, subresource, name, namespace: namespace || pick(['', ...NAMESPACES], p[6]) };
}

/** a with one field changed according to the picks (or unchanged). */
function perturb(a: RequestAttributes, p: Picks): RequestAttributes {
  const what = p[7] % 10;
  if (what === 0) return { ...a, verb: pick(verbs, p[8]) };
  if (what === 1) return { ...a, user: { name: a.user.name, groups: a.user.groups.filter((g) => g === 'system:authenticated') } };
  if (a.kind === 'nonResource') return what < 5 ? { ...a, path: pick(['/healthz', '/healthz/etcd', '/api', '/apis/x', '/fz', '/fz/y'], p[8]) } : a;
  if (what === 2) return { ...a, apiGroup: pick(groups, p[8]) };
  if (what === 3) return { ...a, subresource: pick(['', 'status', 'scale', 'log'], p[8]) };
  if (what === 4) return { ...a, name: pick(['', 'fz-a', 'fz-b', 'u0'], p[8]) };
  if (what === 5) return { ...a, namespace: pick(['', ...NAMESPACES], p[8]) };
  return a;
}

const picksArb = fc.array(fc.nat(1_000), { minLength: 10, maxLength: 10 });

function bindingsOf(policy: GeneratedPolicy): BindingObject[] {
  return [...policy.roleBindings, ...policy.clusterRoleBindings];
}

/** SubjectAccessReview attributes aimed at policy's rules; undefined when no binding names a generated role with rules. */
export function derivedReviewArb(policy: GeneratedPolicy): fc.Arbitrary<RequestAttributes | undefined> {
  return picksArb.map((p) => {
    const usable = bindingsOf(policy).filter((b) => rulesOf(policy, b).length > 0 && (b.subjects?.length ?? 0) > 0);
    if (usable.length === 0) return undefined;
    const b = pick(usable, p[9]);
    const ns = b.metadata.namespace ?? '';
    const rule = pick(rulesOf(policy, b), p[8] + p[9]);
    return perturb(granted(rule, userFor(pick(b.subjects ?? [], p[0] + p[1]), ns), ns, p), p);
  });
}

function subjectNamesToken(s: Subject, ns: string, id: (typeof TOKEN_IDENTITIES)[number]): boolean {
  if (s.kind === 'User') return s.name === id.name;
  if (s.kind === 'Group') return id.groups.includes(s.name) || s.name === 'system:authenticated';
  return id.name === `system:serviceaccount:${s.namespace || ns}:${s.name}`;
}

/** An HTTP target for resource attributes, when they name a served resource (method from the verb). */
function targetFor(a: RequestAttributes): HttpTarget | undefined {
  if (a.kind === 'nonResource') {
    const method = ({ get: 'GET', head: 'HEAD', post: 'POST' } as const)[a.verb as 'get'];
    return method ? { kind: 'nonResource', method, path: a.path } : undefined;
  }
  const served = SERVED.find((s) => s.group === a.apiGroup && s.resource === a.resource);
  if (!served) return undefined;
  const methods: Record<string, HttpTarget['method'] | undefined> = { get: 'GET', list: 'GET', watch: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE' };
  const method = methods[a.verb];
  if (!method) return undefined;
  const named = ['get', 'update', 'patch', 'delete'].includes(a.verb) || (a.verb === 'create' && a.subresource !== '');
  // Writes never name a real object (ns0 is a namespace of the campaign).
  const name = named ? (method !== 'GET' && a.name === 'ns0') || !a.name ? 'fz-a' : a.name : '';
  const subresource = name && served.subresources.includes(a.subresource) ? a.subresource : '';
  const namespace = served.resource === 'namespaces' ? '' : a.namespace;
  return { kind: 'resource', method, watch: a.verb === 'watch', served, namespace, name, subresource, fieldName: !name && (a.verb === 'list' || a.verb === 'watch') ? a.name : '' };
}

/** HTTP cases aimed at policy's rules for the token file's identities; undefined when none fits. */
export function derivedHttpArb(policy: GeneratedPolicy): fc.Arbitrary<HttpCase | undefined> {
  return picksArb.map((p) => {
    const options: { identity: number; b: BindingObject }[] = [];
    TOKEN_IDENTITIES.forEach((id, identity) => {
      for (const b of bindingsOf(policy)) {
        if (rulesOf(policy, b).length > 0 && (b.subjects ?? []).some((s) => subjectNamesToken(s, b.metadata.namespace ?? '', id))) options.push({ identity, b });
      }
    });
    if (options.length === 0) return undefined;
    const { identity, b } = pick(options, p[9]);
    const rule = pick(rulesOf(policy, b), p[8] + p[9]);
    const ns = b.metadata.namespace ?? '';
    const id = TOKEN_IDENTITIES[identity];
    const canImpersonate = (rule.verbs.includes('impersonate') || rule.verbs.includes('*')) && !rule.nonResourceURLs?.length;
    const kinds = (rule.resources ?? []).filter((r) => r === 'users' || r === 'serviceaccounts' || r === '*');
    if (canImpersonate && kinds.length > 0 && p[3] % 3 !== 0) {
      // Impersonate a user or service account the rule names (or any), maybe with a group too.
      const who = rule.resourceNames?.length ? pick(rule.resourceNames, p[5]) : pick(['u0', 'bob', 'sa0'], p[5]);
      const user = pick(kinds, p[4]) === 'serviceaccounts' || (pick(kinds, p[4]) === '*' && p[6] % 2) ? `system:serviceaccount:${ns || 'ns0'}:${who}` : who;
      const groups = p[6] % 3 === 0 ? [pick(['g0', 'system:authenticated', 'g1'], p[7])] : [];
      const target: HttpTarget = p[2] % 2 ? { kind: 'nonResource', method: 'GET', path: pick(['/api', '/healthz', '/fz'], p[2]) } : { kind: 'resource', method: 'GET', watch: false, served: pick(SERVED, p[8]), namespace: pick(['', ...NAMESPACES], p[9]), name: '', subresource: '', fieldName: '' };
      return { identity, impersonation: { user, groups }, target };
    }
    const a = perturb(granted(rule, { name: id.name, groups: id.groups }, ns, p), p);
    const target = targetFor(a);
    return target ? { identity, target } : undefined;
  });
}
