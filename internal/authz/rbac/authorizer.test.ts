import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import type { UserInfo } from '../../request/context.js';
import type { AuthorizationAttributes } from '../interface.js';
import { RbacAuthorizer } from './authorizer.js';
import { RbacIndex } from './index.js';

const rbac = 'rbac.authorization.k8s.io';

function clusterRole(name: string, rules: unknown[]): KubeObject {
  return { apiVersion: `${rbac}/v1`, kind: 'ClusterRole', metadata: { name, resourceVersion: '1' }, rules } as KubeObject;
}
function role(ns: string, name: string, rules: unknown[]): KubeObject {
  return { apiVersion: `${rbac}/v1`, kind: 'Role', metadata: { name, namespace: ns, resourceVersion: '1' }, rules } as KubeObject;
}
function binding(ns: string, name: string, ref: [string, string], subjects: unknown[]): KubeObject {
  return {
    apiVersion: `${rbac}/v1`,
    kind: ns ? 'RoleBinding' : 'ClusterRoleBinding',
    metadata: { name, ...(ns ? { namespace: ns } : {}), resourceVersion: '1' },
    roleRef: { apiGroup: rbac, kind: ref[0], name: ref[1] },
    subjects,
  } as KubeObject;
}
const userSubject = (name: string) => ({ kind: 'User', apiGroup: rbac, name });
const groupSubject = (name: string) => ({ kind: 'Group', apiGroup: rbac, name });

function res(user: UserInfo, verb: string, resource: string, opts: { ns?: string; group?: string; sub?: string; name?: string } = {}): AuthorizationAttributes {
  return {
    user,
    verb,
    isResourceRequest: true,
    path: '',
    namespace: opts.ns ?? '',
    apiGroup: opts.group ?? '',
    apiVersion: 'v1',
    resource,
    subresource: opts.sub ?? '',
    name: opts.name ?? '',
  };
}
function url(user: UserInfo, verb: string, path: string): AuthorizationAttributes {
  return { user, verb, isResourceRequest: false, path, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'] };
const devs: UserInfo = { name: 'bob', groups: ['developers', 'system:authenticated'] };
const sa: UserInfo = { name: 'system:serviceaccount:apps:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:apps', 'system:authenticated'] };

function setup(): { index: RbacIndex; authz: RbacAuthorizer } {
  const index = new RbacIndex();
  index.setRole(clusterRole('pod-reader', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }]));
  index.setRole(clusterRole('health', [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/healthz/*'] }]));
  index.setRole(role('apps', 'deployer', [{ verbs: ['*'], apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'] }]));
  index.setRole(role('apps', 'one-config', [{ verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] }]));
  index.setBinding(binding('', 'alice-reads-pods', ['ClusterRole', 'pod-reader'], [userSubject('alice')]));
  index.setBinding(binding('', 'health-for-all', ['ClusterRole', 'health'], [groupSubject('system:authenticated')]));
  index.setBinding(binding('apps', 'devs-deploy', ['Role', 'deployer'], [groupSubject('developers')]));
  index.setBinding(binding('apps', 'builder-config', ['Role', 'one-config'], [{ kind: 'ServiceAccount', name: 'builder' }]));
  return { index, authz: new RbacAuthorizer(index) };
}

describe('RBAC authorizer', () => {
  it('allows through a ClusterRoleBinding to a user, with kube reason, in every namespace and cluster-wide', () => {
    const { authz } = setup();
    assert.deepEqual(authz.authorize(res(alice, 'list', 'pods', { ns: 'x' })), {
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "alice-reads-pods" of ClusterRole "pod-reader" to User "alice"',
    });
    assert.equal(authz.authorize(res(alice, 'list', 'pods')).decision, 'Allow');
    assert.deepEqual(authz.authorize(res(alice, 'delete', 'pods', { ns: 'x', name: 'p' })), { decision: 'NoOpinion', reason: '' });
    assert.equal(authz.authorize(res(alice, 'list', 'pods', { group: 'apps' })).decision, 'NoOpinion');
  });

  it('allows through a RoleBinding to a group only in its namespace; subresources must be named', () => {
    const { authz } = setup();
    assert.deepEqual(authz.authorize(res(devs, 'patch', 'deployments', { ns: 'apps', group: 'apps', sub: 'scale', name: 'web' })), {
      decision: 'Allow',
      reason: 'RBAC: allowed by RoleBinding "devs-deploy/apps" of Role "deployer" to Group "developers"',
    });
    assert.equal(authz.authorize(res(devs, 'create', 'deployments', { ns: 'other', group: 'apps' })).decision, 'NoOpinion');
    assert.equal(authz.authorize(res(devs, 'create', 'deployments', { group: 'apps' })).decision, 'NoOpinion');
    assert.equal(authz.authorize(res(devs, 'update', 'deployments', { ns: 'apps', group: 'apps', sub: 'status', name: 'web' })).decision, 'NoOpinion');
  });

  it('matches a service account user to a ServiceAccount subject (namespace defaulted to the binding) and honours resourceNames', () => {
    const { authz } = setup();
    assert.deepEqual(authz.authorize(res(sa, 'update', 'configmaps', { ns: 'apps', name: 'settings' })), {
      decision: 'Allow',
      reason: 'RBAC: allowed by RoleBinding "builder-config/apps" of Role "one-config" to ServiceAccount "builder/apps"',
    });
    assert.equal(authz.authorize(res(sa, 'update', 'configmaps', { ns: 'apps', name: 'other' })).decision, 'NoOpinion');
    assert.equal(authz.authorize(res(sa, 'list', 'configmaps', { ns: 'apps' })).decision, 'NoOpinion');
    const impostor: UserInfo = { name: 'system:serviceaccount:other:builder', groups: [] };
    assert.equal(authz.authorize(res(impostor, 'update', 'configmaps', { ns: 'apps', name: 'settings' })).decision, 'NoOpinion');
  });

  it('a ServiceAccount subject of a ClusterRoleBinding names its own namespace', () => {
    const { index, authz } = setup();
    index.setBinding(binding('', 'sa-reads', ['ClusterRole', 'pod-reader'], [{ kind: 'ServiceAccount', name: 'builder', namespace: 'apps' }]));
    assert.equal(
      authz.authorize(res(sa, 'get', 'pods', { ns: 'z', name: 'p' })).reason,
      'RBAC: allowed by ClusterRoleBinding "sa-reads" of ClusterRole "pod-reader" to ServiceAccount "builder/apps"',
    );
  });

  it('authorizes non-resource URLs by path, exact or by prefix', () => {
    const { authz } = setup();
    assert.equal(authz.authorize(url(alice, 'get', '/healthz')).decision, 'Allow');
    assert.equal(authz.authorize(url(alice, 'get', '/healthz/etcd')).decision, 'Allow');
    assert.equal(authz.authorize(url(alice, 'get', '/metrics')).decision, 'NoOpinion');
    assert.equal(authz.authorize(url(alice, 'post', '/healthz')).decision, 'NoOpinion');
    assert.equal(authz.authorize(url({ name: 'system:anonymous', groups: ['system:unauthenticated'] }, 'get', '/healthz')).decision, 'NoOpinion');
  });

  it('reports bindings to missing roles as kube does, deduplicated, and still allows through other bindings', () => {
    const { index, authz } = setup();
    index.setBinding(binding('', 'dangling', ['ClusterRole', 'ghost'], [userSubject('alice')]));
    index.setBinding(binding('', 'dangling-too', ['ClusterRole', 'ghost'], [groupSubject('system:authenticated')]));
    index.setBinding(binding('x', 'local', ['Role', 'nope'], [userSubject('alice')]));
    assert.deepEqual(authz.authorize(res(alice, 'delete', 'secrets')), { decision: 'NoOpinion', reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "ghost" not found' });
    assert.deepEqual(authz.authorize(res(alice, 'delete', 'secrets', { ns: 'x' })), {
      decision: 'NoOpinion',
      reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "ghost" not found, role.rbac.authorization.k8s.io "nope" not found]',
    });
    assert.equal(authz.authorize(res(alice, 'get', 'pods')).decision, 'Allow');
    const rules = authz.rulesFor(alice, 'x');
    assert.equal(rules.evaluationError, '[clusterrole.rbac.authorization.k8s.io "ghost" not found, role.rbac.authorization.k8s.io "nope" not found]');
  });

  it('follows changes: a role created after its binding, a role emptied, a binding deleted or re-pointed at other subjects', () => {
    const { index, authz } = setup();
    index.setBinding(binding('', 'late', ['ClusterRole', 'secret-reader'], [userSubject('carol')]));
    const carol: UserInfo = { name: 'carol', groups: [] };
    assert.equal(authz.authorize(res(carol, 'get', 'secrets', { ns: 'a', name: 's' })).decision, 'NoOpinion');
    index.setRole(clusterRole('secret-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }]));
    assert.equal(authz.authorize(res(carol, 'get', 'secrets', { ns: 'a', name: 's' })).decision, 'Allow');
    index.setRole(clusterRole('secret-reader', []));
    assert.deepEqual(authz.authorize(res(carol, 'get', 'secrets', { ns: 'a', name: 's' })), { decision: 'NoOpinion', reason: '' });
    index.setRole(clusterRole('secret-reader', [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }]));
    index.setBinding(binding('', 'late', ['ClusterRole', 'secret-reader'], [userSubject('dave')]));
    assert.equal(authz.authorize(res(carol, 'get', 'secrets', { ns: 'a', name: 's' })).decision, 'NoOpinion');
    assert.equal(authz.authorize(res({ name: 'dave', groups: [] }, 'get', 'secrets', { ns: 'a', name: 's' })).decision, 'Allow');
    index.deleteBinding(binding('', 'late', ['ClusterRole', 'secret-reader'], []));
    assert.equal(authz.authorize(res({ name: 'dave', groups: [] }, 'get', 'secrets', { ns: 'a', name: 's' })).decision, 'NoOpinion');
    index.deleteBinding(binding('apps', 'devs-deploy', ['Role', 'deployer'], []));
    assert.equal(authz.authorize(res(devs, 'create', 'deployments', { ns: 'apps', group: 'apps' })).decision, 'NoOpinion');
  });

  it('lists the rules of a user in a namespace (cluster bindings first), split into resource and non-resource rules', () => {
    const { authz } = setup();
    const r = authz.rulesFor(devs, 'apps');
    assert.deepEqual(r.nonResourceRules, [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/healthz/*'] }]);
    assert.deepEqual(r.resourceRules, [{ verbs: ['*'], apiGroups: ['apps'], resources: ['deployments', 'deployments/scale'], resourceNames: [] }]);
    assert.equal(r.incomplete, false);
    assert.equal(r.evaluationError, undefined);
    assert.deepEqual(authz.rulesFor(devs, 'other').resourceRules, []);
  });

  it('a binding naming the user twice (user and group) contributes its rules once', () => {
    const { index, authz } = setup();
    index.setBinding(binding('', 'twice', ['ClusterRole', 'pod-reader'], [userSubject('bob'), groupSubject('developers')]));
    assert.equal(authz.rulesFor(devs, '').resourceRules.length, 1);
    assert.equal(authz.authorize(res(devs, 'get', 'pods')).reason, 'RBAC: allowed by ClusterRoleBinding "twice" of ClusterRole "pod-reader" to User "bob"');
  });
});
