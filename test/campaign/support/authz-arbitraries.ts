/**
 * fast-check arbitraries for the authorization fuzz campaign: random RBAC policies (Roles,
 * ClusterRoles, an aggregated ClusterRole, RoleBindings to Roles and ClusterRoles, and
 * ClusterRoleBindings, to users, groups and service accounts over a few namespaces), random
 * SubjectAccessReview attributes, and random HTTP requests with identities and impersonation.
 * Names come from small pools so that rules, subjects and requests meet often.
 */
import fc from 'fast-check';
import type { HttpTarget, ServedResource } from './authz-http.js';
import type { BindingObject, PolicyRule, RequestAttributes, RoleObject, Subject, UserInfo } from './rbac-reference.js';
import type { Impersonation } from './rbac-reference-impersonation.js';

/** The namespaces a policy lives in (created once by the test). */
export const NAMESPACES = ['ns0', 'ns1', 'ns2'] as const;

/** The label every object of a generated policy carries, so a round can delete them all. */
export const POLICY_LABEL = 'fz-policy';

const verbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'impersonate', 'bind', 'escalate', 'use', 'proxy'];
const groups = ['', 'apps', 'rbac.authorization.k8s.io', 'authentication.k8s.io', 'example.com', 'policy'];
const ruleResources = [
  'pods', 'pods/log', 'pods/exec', 'pods/status', 'pods/eviction', 'configmaps', 'secrets', 'serviceaccounts', 'serviceaccounts/token',
  'namespaces', 'namespaces/status', 'nodes', 'nodes/proxy', 'deployments', 'deployments/scale', 'replicasets/scale', '*/scale', '*/status',
  '*', 'roles', 'clusterroles', 'widgets', 'users', 'groups', 'userextras/scopes', 'uids', 'podsecuritypolicies',
];
const names = ['fz-a', 'fz-b', 'ns0', 'sa0', 'u0', 'bob', 'g0', 'system:masters', 'view', 'uid-1', 'system:serviceaccount:ns0:sa0'];
const urls = ['/healthz', '/healthz/*', '/livez', '/readyz', '/version', '/api', '/api/*', '/apis', '/apis/*', '/metrics', '/fz/*', '*', '/openapi/*'];
const paths = ['/healthz', '/healthz/etcd', '/healthz/', '/livez', '/readyz', '/version', '/api', '/api/v1', '/apis', '/apis/apps/v1', '/metrics', '/fz/x', '/fz', '/openapi/v2', '/'];
/** Spellings of non-resource paths that only an HTTP request has: a query, percent-encoding. */
const httpPaths = [...paths, '/healthz?verbose', '/healthz%2Fetcd', '/fz/%7Ex', '/version?x=1', '/ap%69'];

/** Resources served over HTTP (widgets in example.com is served by nobody: authorization still comes first). */
export const SERVED: readonly ServedResource[] = [
  { group: '', version: 'v1', resource: 'pods', namespaced: true, subresources: ['log', 'exec', 'status', 'eviction'] },
  { group: '', version: 'v1', resource: 'configmaps', namespaced: true, subresources: [] },
  { group: '', version: 'v1', resource: 'secrets', namespaced: true, subresources: [] },
  { group: '', version: 'v1', resource: 'serviceaccounts', namespaced: true, subresources: ['token'] },
  { group: '', version: 'v1', resource: 'namespaces', namespaced: false, subresources: ['status', 'finalize'] },
  { group: '', version: 'v1', resource: 'nodes', namespaced: false, subresources: ['status', 'proxy'] },
  { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true, subresources: ['scale', 'status'] },
  { group: 'apps', version: 'v1', resource: 'replicasets', namespaced: true, subresources: ['scale'] },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'roles', namespaced: true, subresources: [] },
  { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', namespaced: false, subresources: [] },
  { group: 'example.com', version: 'v1', resource: 'widgets', namespaced: true, subresources: [] },
];

/** Resources only SubjectAccessReviews ask about (impersonation targets and a verb-only resource). */
const reviewOnly = [
  { group: '', resource: 'users', subresources: [] },
  { group: '', resource: 'groups', subresources: [] },
  { group: 'authentication.k8s.io', resource: 'userextras', subresources: ['scopes'] },
  { group: 'authentication.k8s.io', resource: 'uids', subresources: [] },
  { group: 'policy', resource: 'podsecuritypolicies', subresources: [] },
];

/** The identities of the token file (name, groups as written) and anonymous (token ''). */
export const TOKEN_IDENTITIES: readonly { token: string; name: string; groups: string[] }[] = [
  { token: 'fz-token-u0-0123456789', name: 'u0', groups: ['g0'] },
  { token: 'fz-token-u1-0123456789', name: 'u1', groups: ['g1', 'g2'] },
  { token: 'fz-token-u2-0123456789', name: 'u2', groups: [] },
  { token: 'fz-token-sa0-0123456789', name: 'system:serviceaccount:ns0:sa0', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns0'] },
  { token: 'fz-token-sa1-0123456789', name: 'system:serviceaccount:ns1:sa1', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns1'] },
];

const subjectArb: fc.Arbitrary<Subject> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('u0', 'u1', 'u2', 'bob', 'system:anonymous').map((name) => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name })) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom('g0', 'g1', 'g2', 'system:serviceaccounts', 'system:serviceaccounts:ns0', 'system:serviceaccounts:ns1', 'system:authenticated', 'system:unauthenticated')
      .map((name) => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name })),
  },
  { weight: 2, arbitrary: fc.constantFrom(['ns0', 'sa0'], ['ns1', 'sa1'], ['ns2', 'sa0']).map(([namespace, name]) => ({ kind: 'ServiceAccount', namespace, name })) },
);

const verbsArb = fc.oneof({ weight: 5, arbitrary: fc.subarray(verbs, { minLength: 1, maxLength: 6 }) }, { weight: 1, arbitrary: fc.constant(['*']) });

/** A resource rule: mostly around one catalog resource (its group, itself, a subresource or a wildcard), sometimes anything. */
const resourceRuleArb: fc.Arbitrary<PolicyRule> = fc
  .record({
    verbs: verbsArb,
    around: fc.constantFrom(...SERVED, ...SERVED),
    shape: fc.nat(9),
    anyResource: fc.constantFrom(...ruleResources),
    extraResources: fc.subarray(ruleResources, { maxLength: 2 }),
    randomGroups: fc.subarray(groups, { minLength: 1, maxLength: 3 }),
    resourceNames: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.subarray(names, { minLength: 1, maxLength: 3 }) }),
  })
  .map(({ verbs: vs, around, shape, anyResource, extraResources, randomGroups, resourceNames }) => {
    const sub = around.subresources[shape % Math.max(1, around.subresources.length)];
    const main = shape < 4 ? around.resource : shape < 6 && sub ? `${around.resource}/${sub}` : shape < 7 && sub ? `*/${sub}` : shape < 8 ? '*' : anyResource;
    const apiGroups = shape % 5 === 4 ? randomGroups : shape % 7 === 6 ? ['*'] : [around.group];
    return { verbs: vs, apiGroups, resources: [main, ...extraResources.filter((r) => r !== main)], ...(resourceNames ? { resourceNames } : {}) };
  });

/** A rule granting impersonation of some users, groups, service accounts, extras or uids. */
const impersonateRuleArb: fc.Arbitrary<PolicyRule> = fc.record(
  {
    verbs: fc.constantFrom(['impersonate'], ['impersonate', 'get'], ['*']),
    apiGroups: fc.constantFrom([''], ['authentication.k8s.io'], ['', 'authentication.k8s.io'], ['*']),
    resources: fc.subarray(['users', 'groups', 'serviceaccounts', 'userextras/scopes', 'userextras/*', 'userextras/reason', 'userextras/acme.com/project', 'uids', '*'], { minLength: 1, maxLength: 4 }),
    resourceNames: fc.subarray(['u0', 'u1', 'bob', 'g0', 'g1', 'system:authenticated', 'sa0', 'view', 'uid-1', 'system:anonymous'], { minLength: 1, maxLength: 5 }),
  },
  { requiredKeys: ['verbs', 'apiGroups', 'resources'] },
);

const anyRuleArb: fc.Arbitrary<PolicyRule> = fc.oneof({ weight: 4, arbitrary: resourceRuleArb }, { weight: 1, arbitrary: impersonateRuleArb });

const nonResourceRuleArb: fc.Arbitrary<PolicyRule> = fc.record({
  verbs: fc.oneof(fc.subarray(['get', 'post', 'put', 'delete', 'head'], { minLength: 1, maxLength: 2 }), fc.constant(['*'])),
  nonResourceURLs: fc.subarray(urls, { minLength: 1, maxLength: 2 }),
});

const labelsArb = fc.option(fc.constantFrom('a', 'b').map((v) => ({ 'fz-agg': v })), { nil: undefined });

/** A random RBAC policy: the objects to create, each labelled with POLICY_LABEL. */
export interface GeneratedPolicy {
  readonly clusterRoles: RoleObject[];
  readonly roles: RoleObject[];
  readonly clusterRoleBindings: BindingObject[];
  readonly roleBindings: BindingObject[];
}

const ref = (kind: string, name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });

/** Random policies; every object carries POLICY_LABEL so a round can delete them all. */
export const policyArb: fc.Arbitrary<GeneratedPolicy> = fc
  .record({
    clusterRoles: fc.array(fc.record({ labels: labelsArb, rules: fc.array(fc.oneof({ weight: 4, arbitrary: anyRuleArb }, { weight: 1, arbitrary: nonResourceRuleArb }), { minLength: 1, maxLength: 4 }) }), { minLength: 1, maxLength: 4 }),
    aggregated: fc.option(
      fc.constantFrom<RoleObject['aggregationRule']>(
        { clusterRoleSelectors: [{ matchLabels: { 'fz-agg': 'a' } }] },
        { clusterRoleSelectors: [{ matchExpressions: [{ key: 'fz-agg', operator: 'In', values: ['a', 'b'] }] }] },
        { clusterRoleSelectors: [{ matchLabels: { 'fz-agg': 'b' } }, { matchExpressions: [{ key: 'fz-agg', operator: 'NotIn', values: ['b'] }] }] },
      ),
      { nil: undefined },
    ),
    roles: fc.array(fc.record({ namespace: fc.constantFrom(...NAMESPACES), rules: fc.array(anyRuleArb, { minLength: 1, maxLength: 4 }) }), { maxLength: 3 }),
    roleBindings: fc.array(
      fc.record({ namespace: fc.constantFrom(...NAMESPACES), pick: fc.nat(), toClusterRole: fc.boolean(), subjects: fc.array(subjectArb, { minLength: 1, maxLength: 3 }), saWithoutNamespace: fc.boolean() }),
      { minLength: 1, maxLength: 4 },
    ),
    clusterRoleBindings: fc.array(fc.record({ pick: fc.nat(), subjects: fc.array(subjectArb, { minLength: 1, maxLength: 3 }) }), { maxLength: 3 }),
  })
  .map((g) => {
    const labels = (extra?: Record<string, string>) => ({ [POLICY_LABEL]: 'true', ...extra });
    const clusterRoles: RoleObject[] = g.clusterRoles.map((c, i) => ({ metadata: { name: `fz-cr${i}`, labels: labels(c.labels) }, rules: c.rules }));
    if (g.aggregated) clusterRoles.push({ metadata: { name: 'fz-aggregated', labels: labels() }, aggregationRule: g.aggregated, rules: [] });
    const roles: RoleObject[] = g.roles.map((r, i) => ({ metadata: { name: `fz-role${i}`, namespace: r.namespace, labels: labels() }, rules: r.rules }));
    // Bindings may name a ClusterRole of the bootstrap policy, or a role that does not exist.
    const clusterRoleNames = [...clusterRoles.map((c) => c.metadata.name), 'view', 'edit', 'system:basic-user', 'fz-missing'];
    const roleBindings: BindingObject[] = g.roleBindings.map((b, i) => {
      const roleNames = [...roles.filter((r) => r.metadata.namespace === b.namespace).map((r) => r.metadata.name), 'fz-missing'];
      const roleRef = b.toClusterRole ? ref('ClusterRole', clusterRoleNames[b.pick % clusterRoleNames.length]) : ref('Role', roleNames[b.pick % roleNames.length]);
      // A ServiceAccount subject without a namespace means one in the binding's namespace.
      const subjects = b.subjects.map((s) => (s.kind === 'ServiceAccount' && b.saWithoutNamespace ? { kind: s.kind, name: s.name } : s));
      return { metadata: { name: `fz-rb${i}`, namespace: b.namespace, labels: labels() }, roleRef, subjects };
    });
    const clusterRoleBindings: BindingObject[] = g.clusterRoleBindings.map((b, i) => ({
      metadata: { name: `fz-crb${i}`, labels: labels() },
      roleRef: ref('ClusterRole', clusterRoleNames[b.pick % clusterRoleNames.length]),
      subjects: b.subjects,
    }));
    return { clusterRoles, roles, roleBindings, clusterRoleBindings };
  });

const userArb: fc.Arbitrary<UserInfo> = fc
  .record({
    who: fc.constantFrom<[string, string[]]>(
      ['u0', ['g0']],
      ['u1', ['g1', 'g2']],
      ['u2', []],
      ['bob', ['g0', 'g1']],
      ['system:serviceaccount:ns0:sa0', ['system:serviceaccounts', 'system:serviceaccounts:ns0']],
      ['system:serviceaccount:ns1:sa1', ['system:serviceaccounts', 'system:serviceaccounts:ns1']],
      ['system:serviceaccount:ns2:sa0', []],
      ['system:anonymous', ['system:unauthenticated']],
    ),
    authenticated: fc.boolean(),
    masters: fc.integer({ min: 0, max: 30 }),
  })
  .map(({ who: [name, gs], authenticated, masters }) => ({
    name,
    groups: [...gs, ...(authenticated && name !== 'system:anonymous' ? ['system:authenticated'] : []), ...(masters === 0 ? ['system:masters'] : [])],
  }));

const allResources = [...SERVED.map((s) => ({ group: s.group, resource: s.resource, subresources: s.subresources })), ...reviewOnly];

/** Random attributes for a SubjectAccessReview: resource requests of every verb and scope, and non-resource paths. */
export const reviewAttributesArb: fc.Arbitrary<RequestAttributes> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({
        user: userArb,
        verb: fc.constantFrom(...verbs, 'Get', 'approve'),
        target: fc.constantFrom(...allResources, { group: '', resource: 'Pods', subresources: ['log'] }),
        subPick: fc.nat(4),
        otherGroup: fc.option(fc.constantFrom(...groups), { freq: 6, nil: undefined }),
        namespace: fc.constantFrom('', ...NAMESPACES, 'kube-system'),
        name: fc.constantFrom('', '', 'fz-a', 'fz-b', 'ns0', 'sa0', 'u0', 'g0', 'system:masters', 'view'),
      })
      .map(({ user, verb, target, subPick, otherGroup, namespace, name }) => ({
        kind: 'resource' as const,
        user,
        verb,
        apiGroup: otherGroup ?? target.group,
        resource: target.resource,
        subresource: target.subresources[subPick] ?? '',
        name,
        namespace,
      })),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('nonResource' as const), user: userArb, verb: fc.constantFrom('get', 'get', 'post', 'put', 'delete', 'head'), path: fc.constantFrom(...paths) }) },
);

/** One HTTP request of the campaign: an identity of the token file (or anonymous), maybe impersonating. */
export interface HttpCase {
  readonly identity: number;
  readonly impersonation?: Impersonation;
  readonly target: HttpTarget;
}

const impersonationArb: fc.Arbitrary<Impersonation> = fc
  .record({
    user: fc.constantFrom(
      'u0', 'u1', 'bob', 'system:serviceaccount:ns0:sa0', 'system:serviceaccount:ns2:sa9', 'system:anonymous',
      // Not service accounts (kube checks 'impersonate' on users for these): too few or many parts, an invalid namespace or name.
      'system:serviceaccount:ns0', 'system:serviceaccount:ns0:sa0:x', 'system:serviceaccount:NS0:sa0', 'system:serviceaccount:ns0:Sa0', 'system:serviceaccount::sa0',
    ),
    groups: fc.subarray(['g0', 'g1', 'system:authenticated', 'system:unauthenticated', 'system:serviceaccounts', 'system:masters'], { maxLength: 2 }),
    extra: fc.option(fc.record({ key: fc.constantFrom('scopes', 'scopes', 'Reason', 'acme.com%2Fproject'), values: fc.subarray(['view', 'edit'], { minLength: 1, maxLength: 2 }) }), { freq: 3, nil: undefined }),
    uid: fc.option(fc.constantFrom('uid-1', 'uid-2'), { freq: 3, nil: undefined }),
  })
  .map(({ extra, uid, ...i }) => ({ ...i, ...(extra ? { extra } : {}), ...(uid !== undefined ? { uid } : {}) }));

const targetArb: fc.Arbitrary<HttpTarget> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({
        method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'),
        watch: fc.boolean(),
        served: fc.constantFrom(...SERVED),
        namespace: fc.constantFrom('', ...NAMESPACES, 'ns0'),
        name: fc.constantFrom('', '', 'fz-a', 'fz-b', 'ns0'),
        subPick: fc.nat(4),
        fieldName: fc.constantFrom('', '', 'fz-a'),
        special: fc.constantFrom(undefined, undefined, undefined, undefined, undefined, 'watch' as const, 'proxy' as const),
        variant: fc.nat(15),
      })
      .map((r): HttpTarget => {
        // Only reads name a real namespace: every write names an object that does not exist.
        const name = r.method !== 'GET' && r.name === 'ns0' ? 'fz-a' : r.name;
        const subresource = name ? (r.served.subresources[r.subPick] ?? '') : '';
        return { kind: 'resource', method: r.method as 'GET', watch: r.watch, served: r.served, namespace: r.namespace, name, subresource, fieldName: name ? '' : r.fieldName, variant: r.variant, ...(r.special ? { special: r.special } : {}) };
      }),
  },
  { weight: 1, arbitrary: fc.record({ path: fc.constantFrom(...httpPaths), method: fc.constantFrom('GET' as const, 'GET' as const, 'HEAD' as const, 'POST' as const) }).map(({ path, method }): HttpTarget => ({ kind: 'nonResource', method, path })) },
);

/** Random HTTP requests: identity index TOKEN_IDENTITIES.length is anonymous. */
export const httpCaseArb: fc.Arbitrary<HttpCase> = fc
  .record({ identity: fc.nat(TOKEN_IDENTITIES.length), impersonation: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: impersonationArb }), target: targetArb })
  .map(({ impersonation, ...c }) => (impersonation ? { ...c, impersonation } : c));
