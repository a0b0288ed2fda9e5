import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { useEtcd } from '../../../test/support/etcd.js';
import { ResourceClient } from '../../controllers/resource-client.js';
import { createLogger } from '../../observability/logging.js';
import type { RestStorage } from '../../registry/interface.js';
import type { UserInfo } from '../../request/context.js';
import { reconcileBootstrapPolicy } from '../bootstrap-policy/ensure.js';
import { bootstrapPolicy } from '../bootstrap-policy/policy.js';
import type { AuthorizationAttributes } from '../interface.js';
import { startRbacFixture, type RbacFixture } from './testing.js';
import type { BindingObject, RoleObject } from './types.js';

const fx = useEtcd();
const rbac = 'rbac.authorization.k8s.io';

function attrs(user: UserInfo, verb: string, resource: string, ns = '', group = '', name = ''): AuthorizationAttributes {
  return { user, verb, isResourceRequest: true, path: '', namespace: ns, apiGroup: group, apiVersion: 'v1', resource, subresource: '', name };
}
function path(user: UserInfo, p: string): AuthorizationAttributes {
  return { user, verb: 'get', isResourceRequest: false, path: p, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

const anonymous: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
const carol: UserInfo = { name: 'carol', groups: ['system:authenticated'] };

describe('RBAC over etcd-backed stores, with the bootstrap policy and aggregation', () => {
  let rf: RbacFixture;
  let clients: Record<'clusterRoles' | 'clusterRoleBindings' | 'roles' | 'roleBindings', ResourceClient>;
  before(async () => {
    rf = await startRbacFixture(fx);
    const c = (r: string) => new ResourceClient(rf.storageOf(rbac, r) as RestStorage, rbac, r);
    clients = { clusterRoles: c('clusterroles'), clusterRoleBindings: c('clusterrolebindings'), roles: c('roles'), roleBindings: c('rolebindings') };
  });
  after(() => rf?.stop());

  it('creates every bootstrap object and reports itself bootstrapped', async () => {
    const policy = bootstrapPolicy();
    assert.equal((await clients.clusterRoles.list()).length, policy.clusterRoles.length);
    assert.equal((await clients.clusterRoleBindings.list()).length, policy.clusterRoleBindings.length);
    assert.equal((await clients.roles.list()).length, policy.roles.length);
    assert.equal((await clients.roleBindings.list()).length, policy.roleBindings.length);
    assert.equal(rf.authorization.rbac?.bootstrapped(), true);
  });

  it('decides from the bootstrap policy: public info for anonymous, discovery for users, everything for system:masters', async () => {
    const authz = rf.authorization.authorizer;
    assert.deepEqual(await authz.authorize(path(anonymous, '/healthz')), {
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:unauthenticated"',
    });
    assert.equal((await authz.authorize(path(anonymous, '/version'))).decision, 'Allow');
    assert.equal((await authz.authorize(path(anonymous, '/apis'))).decision, 'NoOpinion');
    assert.equal((await authz.authorize(path(carol, '/apis'))).decision, 'Allow');
    assert.equal((await authz.authorize(attrs(anonymous, 'list', 'pods', 'default'))).decision, 'NoOpinion');
    // The union allows system:masters before RBAC is asked (kube's privileged-groups authorizer);
    // RBAC itself allows it through the bootstrap binding.
    const masters = attrs({ name: 'root', groups: ['system:masters'] }, 'delete', 'nodes', '', '', 'n1');
    assert.deepEqual(await authz.authorize(masters), { decision: 'Allow', reason: '' });
    assert.equal((await rf.authorization.rbac?.authorizer.authorize(masters))?.reason, 'RBAC: allowed by ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"');
  });

  it('follows bindings created through the store: edit in one namespace', async () => {
    await clients.roleBindings.create({
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata: { name: 'carol-edit', namespace: 'team' },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'edit' },
      subjects: [{ kind: 'User', apiGroup: rbac, name: 'carol' }],
    } as never);
    const authz = rf.authorization.authorizer;
    await rf.until(async () => (await authz.authorize(attrs(carol, 'create', 'deployments', 'team', 'apps'))).decision === 'Allow');
    assert.equal((await authz.authorize(attrs(carol, 'create', 'deployments', 'other', 'apps'))).decision, 'NoOpinion');
    assert.equal((await authz.authorize(attrs(carol, 'create', 'rolebindings', 'team', rbac))).decision, 'NoOpinion', 'edit cannot manage RBAC');
    assert.equal((await authz.authorize(attrs(carol, 'create', 'rolebindings', 'team', rbac))).reason, '');
  });

  it('aggregates a new ClusterRole labelled aggregate-to-admin into admin, and drops it when deleted', async () => {
    await clients.clusterRoles.create({
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRole',
      metadata: { name: 'widgets-admin', labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } },
      rules: [{ verbs: ['*'], apiGroups: ['example.com'], resources: ['widgets'] }],
    } as never);
    const hasWidgets = async () => ((await clients.clusterRoles.get('admin')) as RoleObject).rules?.some((r) => r.apiGroups?.includes('example.com')) ?? false;
    await rf.until(hasWidgets);
    assert.equal(((await clients.clusterRoles.get('edit')) as RoleObject).rules?.some((r) => r.apiGroups?.includes('example.com')), false);
    await clients.clusterRoles.delete('widgets-admin');
    await rf.until(async () => !(await hasWidgets()));
  });

  it('reconciles a changed bootstrap role at the next pass, unless it is annotated autoupdate=false', async () => {
    const log = createLogger(0, true);
    await clients.clusterRoles.update('system:kube-dns', '', (r) => ({ ...r, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }) as never);
    await clients.clusterRoles.update('system:heapster', '', (r) => ({
      ...r,
      metadata: { ...r.metadata, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } },
      rules: [],
    }));
    await clients.clusterRoleBindings.update('system:discovery', '', (b) => ({ ...b, subjects: [{ kind: 'User', apiGroup: rbac, name: 'x' }] }) as never);
    assert.equal(await reconcileBootstrapPolicy(clients, log), true);
    const dns = (await clients.clusterRoles.get('system:kube-dns')) as RoleObject;
    assert.deepEqual(
      dns.rules?.map((r) => `${r.verbs.join(',')}:${(r.resources ?? []).join(',')}`),
      ['get:pods', 'list:endpoints', 'watch:endpoints', 'list:services', 'watch:services'],
    );
    assert.deepEqual(((await clients.clusterRoles.get('system:heapster')) as RoleObject).rules, []);
    const discovery = (await clients.clusterRoleBindings.get('system:discovery')) as BindingObject;
    assert.deepEqual(discovery.subjects?.map((s) => s.name), ['x', 'system:authenticated']);
  });
});
