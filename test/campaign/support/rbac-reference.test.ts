import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { aggregateClusterRoles, ReferenceRbac, ruleAllows, selectorMatches, type PolicyRule, type RbacPolicy, type RequestAttributes, type UserInfo } from './rbac-reference.js';
import { impersonationChecks } from './rbac-reference-impersonation.js';
import { attributesOf, forbiddenMessage, targetPath, type ServedResource } from './authz-http.js';

const jane: UserInfo = { name: 'jane', groups: ['devs', 'system:authenticated'] };
const res = (over: Partial<Extract<RequestAttributes, { kind: 'resource' }>>): RequestAttributes => ({
  kind: 'resource',
  user: jane,
  verb: 'get',
  apiGroup: '',
  resource: 'pods',
  subresource: '',
  name: '',
  namespace: 'team',
  ...over,
});
const path = (p: string, verb = 'get'): RequestAttributes => ({ kind: 'nonResource', user: jane, verb, path: p });
const ref = (kind: string, name: string) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });

describe('reference RBAC: rules', () => {
  it('matches verbs, groups and resources, with "*" for each', () => {
    const rule: PolicyRule = { verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['pods', 'deployments'] };
    assert.equal(ruleAllows(rule, res({})), true);
    assert.equal(ruleAllows(rule, res({ verb: 'delete' })), false);
    assert.equal(ruleAllows(rule, res({ apiGroup: 'batch' })), false);
    assert.equal(ruleAllows(rule, res({ resource: 'secrets' })), false);
    assert.equal(ruleAllows({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, res({ verb: 'escalate', apiGroup: 'x.io', resource: 'things', subresource: 'status' })), true);
  });

  it('keeps subresources apart: "pods" is not "pods/log"; "*/scale" is any resource\'s scale', () => {
    assert.equal(ruleAllows({ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res({ subresource: 'log', name: 'p' })), false);
    assert.equal(ruleAllows({ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, res({ subresource: 'log', name: 'p' })), true);
    assert.equal(ruleAllows({ verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, res({ name: 'p' })), false);
    const scale: PolicyRule = { verbs: ['update'], apiGroups: ['apps'], resources: ['*/scale'] };
    assert.equal(ruleAllows(scale, res({ verb: 'update', apiGroup: 'apps', resource: 'deployments', subresource: 'scale' })), true);
    assert.equal(ruleAllows(scale, res({ verb: 'update', apiGroup: 'apps', resource: 'deployments' })), false);
    assert.equal(ruleAllows(scale, res({ verb: 'update', apiGroup: 'apps', resource: 'deployments', subresource: 'status' })), false);
    // "userextras/*" is not a pattern: only "*/<sub>" and "*" are.
    assert.equal(ruleAllows({ verbs: ['impersonate'], apiGroups: ['authentication.k8s.io'], resources: ['userextras/*'] }, res({ verb: 'impersonate', apiGroup: 'authentication.k8s.io', resource: 'userextras', subresource: 'scopes' })), false);
  });

  it('limits by resourceNames, which no request without a name meets', () => {
    const rule: PolicyRule = { verbs: ['get', 'list', 'create'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['cfg'] };
    assert.equal(ruleAllows(rule, res({ resource: 'configmaps', name: 'cfg' })), true);
    assert.equal(ruleAllows(rule, res({ resource: 'configmaps', name: 'other' })), false);
    assert.equal(ruleAllows(rule, res({ resource: 'configmaps', verb: 'list' })), false);
    assert.equal(ruleAllows(rule, res({ resource: 'configmaps', verb: 'create' })), false);
  });

  it('matches non-resource URLs exactly or by a trailing "*" prefix, and never resource requests', () => {
    const rule: PolicyRule = { verbs: ['get'], nonResourceURLs: ['/healthz/*', '/version'] };
    assert.equal(ruleAllows(rule, path('/healthz/etcd')), true);
    assert.equal(ruleAllows(rule, path('/healthz/')), true);
    assert.equal(ruleAllows(rule, path('/healthz')), false);
    assert.equal(ruleAllows(rule, path('/version')), true);
    assert.equal(ruleAllows(rule, path('/version/x')), false);
    assert.equal(ruleAllows(rule, path('/version', 'post')), false);
    assert.equal(ruleAllows({ verbs: ['*'], nonResourceURLs: ['*'] }, path('/anything', 'delete')), true);
    assert.equal(ruleAllows({ verbs: ['*'], nonResourceURLs: ['*'] }, res({})), false);
    assert.equal(ruleAllows({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, path('/api')), false);
  });
});

describe('reference RBAC: bindings', () => {
  const policy: RbacPolicy = {
    clusterRoles: [
      { metadata: { name: 'pod-reader' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], nonResourceURLs: ['/metrics'] }] },
    ],
    roles: [{ metadata: { name: 'cm-writer', namespace: 'team' }, rules: [{ verbs: ['create'], apiGroups: [''], resources: ['configmaps'] }] }],
    clusterRoleBindings: [{ metadata: { name: 'ops' }, roleRef: ref('ClusterRole', 'pod-reader'), subjects: [{ kind: 'Group', name: 'ops' }] }],
    roleBindings: [
      { metadata: { name: 'devs', namespace: 'team' }, roleRef: ref('ClusterRole', 'pod-reader'), subjects: [{ kind: 'Group', name: 'devs' }] },
      { metadata: { name: 'jane', namespace: 'team' }, roleRef: ref('Role', 'cm-writer'), subjects: [{ kind: 'User', name: 'jane' }] },
      { metadata: { name: 'bot', namespace: 'team' }, roleRef: ref('Role', 'cm-writer'), subjects: [{ kind: 'ServiceAccount', name: 'bot' }] },
      { metadata: { name: 'gone', namespace: 'team' }, roleRef: ref('Role', 'missing'), subjects: [{ kind: 'User', name: 'jane' }] },
    ],
  };
  const rbac = new ReferenceRbac(policy);

  it('applies a RoleBinding to a ClusterRole only in its namespace, never cluster-wide or to non-resource URLs', () => {
    assert.equal(rbac.allowed(res({ verb: 'list' })), true);
    assert.equal(rbac.allowed(res({ verb: 'list', namespace: 'other' })), false);
    assert.equal(rbac.allowed(res({ verb: 'list', namespace: '' })), false, 'all namespaces');
    assert.equal(rbac.allowed(path('/metrics')), false);
  });

  it('applies a ClusterRoleBinding everywhere, non-resource URLs included', () => {
    const op: UserInfo = { name: 'olga', groups: ['ops'] };
    assert.equal(rbac.allowed(res({ user: op, verb: 'list', namespace: '' })), true);
    assert.equal(rbac.allowed(res({ user: op, namespace: 'x' })), true);
    assert.equal(rbac.allowed({ ...path('/metrics'), user: op }), true);
  });

  it('matches users, groups and service accounts (a subject without namespace is in the binding\'s)', () => {
    assert.equal(rbac.allowed(res({ verb: 'create', resource: 'configmaps' })), true);
    assert.equal(rbac.allowed(res({ user: { name: 'JANE', groups: [] }, verb: 'create', resource: 'configmaps' })), false);
    const bot = (ns: string): UserInfo => ({ name: `system:serviceaccount:${ns}:bot`, groups: [] });
    assert.equal(rbac.allowed(res({ user: bot('team'), verb: 'create', resource: 'configmaps' })), true);
    assert.equal(rbac.allowed(res({ user: bot('other'), verb: 'create', resource: 'configmaps' })), false);
  });

  it('lets system:masters do anything', () => {
    assert.equal(rbac.allowed(res({ user: { name: 'x', groups: ['system:masters'] }, verb: 'escalate', resource: 'clusterroles', namespace: '' })), true);
  });
});

describe('reference RBAC: aggregation', () => {
  it('unions the rules of matching ClusterRoles, transitively, ignoring the stored rules of aggregated ones', () => {
    const r1: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };
    const r2: PolicyRule = { verbs: ['list'], apiGroups: [''], resources: ['pods'] };
    const rules = aggregateClusterRoles([
      { metadata: { name: 'admin' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'to-admin': 'true' } }] }, rules: [{ verbs: ['stale'], nonResourceURLs: ['*'] }] },
      { metadata: { name: 'edit', labels: { 'to-admin': 'true' } }, aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'to-edit', operator: 'Exists' }] }] } },
      { metadata: { name: 'a', labels: { 'to-edit': 'x' } }, rules: [r1] },
      { metadata: { name: 'b', labels: { 'to-edit': 'y', 'to-admin': 'true' } }, rules: [r1, r2] },
      { metadata: { name: 'c' }, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] },
    ]);
    assert.deepEqual(rules.get('edit'), [r1, r2]);
    assert.deepEqual(rules.get('admin'), [r1, r2]);
  });

  it('evaluates label selectors as kube does', () => {
    assert.equal(selectorMatches({ matchLabels: { a: '1' } }, { a: '1', b: '2' }), true);
    assert.equal(selectorMatches({ matchLabels: { a: '1' } }, { a: '2' }), false);
    assert.equal(selectorMatches({ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['1'] }] }, {}), true);
    assert.equal(selectorMatches({ matchExpressions: [{ key: 'a', operator: 'In', values: ['1'] }] }, {}), false);
    assert.equal(selectorMatches({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, { a: '' }), false);
  });
});

describe('reference impersonation', () => {
  it('checks the user, each group, each extra value and the uid, in that order', () => {
    const { checks, actAs } = impersonationChecks(jane, { user: 'bob', groups: ['qa'], extra: { key: 'scopes', values: ['view'] }, uid: 'u-1' });
    assert.deepEqual(
      checks.map((c) => (c.kind === 'resource' ? `${c.apiGroup}/${c.resource}/${c.subresource}/${c.name}` : '')),
      ['/users//bob', '/groups//qa', 'authentication.k8s.io/userextras/scopes/view', 'authentication.k8s.io/uids//u-1'],
    );
    assert.deepEqual(actAs, { name: 'bob', groups: ['qa', 'system:authenticated'] });
  });

  it('gives a service account its groups unless groups are named; anonymous gets system:unauthenticated', () => {
    const sa = impersonationChecks(jane, { user: 'system:serviceaccount:ns0:sa0', groups: [] });
    assert.deepEqual(sa.checks[0], { kind: 'resource', user: jane, verb: 'impersonate', apiGroup: '', resource: 'serviceaccounts', subresource: '', namespace: 'ns0', name: 'sa0' });
    assert.deepEqual(sa.actAs.groups, ['system:serviceaccounts', 'system:serviceaccounts:ns0', 'system:authenticated']);
    assert.deepEqual(impersonationChecks(jane, { user: 'system:serviceaccount:ns0:sa0', groups: ['g'] }).actAs.groups, ['g', 'system:authenticated']);
    assert.deepEqual(impersonationChecks(jane, { user: 'system:anonymous', groups: [] }).actAs.groups, ['system:unauthenticated']);
    assert.deepEqual(impersonationChecks(jane, { user: 'x', groups: ['system:unauthenticated'] }).actAs.groups, ['system:unauthenticated']);
    // Not a well-formed service account name: a user.
    for (const user of ['system:serviceaccount:ns0', 'system:serviceaccount:ns0:a:b', 'system:serviceaccount:NS:sa', 'system:serviceaccount:ns:S_A', 'system:serviceaccount::sa']) {
      assert.equal((impersonationChecks(jane, { user, groups: [] }).checks[0] as { resource: string }).resource, 'users', user);
    }
    assert.equal((impersonationChecks(jane, { user: 'system:serviceaccount:ns:my.sa', groups: [] }).checks[0] as { resource: string }).resource, 'serviceaccounts');
  });
});

describe('campaign HTTP attributes', () => {
  const pods: ServedResource = { group: '', version: 'v1', resource: 'pods', namespaced: true, subresources: ['log'] };
  const namespaces: ServedResource = { group: '', version: 'v1', resource: 'namespaces', namespaced: false, subresources: ['status'] };
  const base = { kind: 'resource' as const, watch: false, namespace: 'ns0', name: '', subresource: '', fieldName: '' };

  it('derives verb, namespace and name as kube\'s request info does', () => {
    const watchOne = { ...base, method: 'GET' as const, served: pods, watch: true, fieldName: 'fz-a' };
    assert.equal(targetPath(watchOne), '/api/v1/namespaces/ns0/pods?watch=true&fieldSelector=metadata.name%3Dfz-a');
    assert.deepEqual(attributesOf(watchOne, jane), res({ verb: 'watch', namespace: 'ns0', name: 'fz-a' }));
    const status = { ...base, method: 'PUT' as const, served: namespaces, name: 'fz-a', subresource: 'status' };
    assert.equal(targetPath(status), '/api/v1/namespaces/fz-a/status?dryRun=All');
    assert.deepEqual(attributesOf(status, jane), res({ verb: 'update', resource: 'namespaces', subresource: 'status', name: 'fz-a', namespace: 'fz-a' }));
    const wipe = { ...base, method: 'DELETE' as const, served: pods };
    assert.equal(attributesOf(wipe, jane).verb, 'deletecollection');
  });

  it('writes kube\'s 403 messages', () => {
    assert.equal(forbiddenMessage(res({ verb: 'list', namespace: '' })), 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" at the cluster scope');
    assert.equal(
      forbiddenMessage(res({ apiGroup: 'apps', resource: 'deployments', subresource: 'scale', name: 'web' })),
      'deployments.apps "web" is forbidden: User "jane" cannot get resource "deployments/scale" in API group "apps" in the namespace "team"',
    );
    assert.equal(forbiddenMessage(path('/apis')), 'forbidden: User "jane" cannot get path "/apis"');
  });
});
