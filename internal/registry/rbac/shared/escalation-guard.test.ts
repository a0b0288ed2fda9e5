import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { useEtcd } from '../../../../test/support/etcd.js';
import { startRbacFixture, type RbacFixture } from '../../../authz/rbac/testing.js';
import type { RequestContext, UserInfo } from '../../../request/context.js';
import { patchWith, requestContext, statusOf } from '../../core/shared/testing.js';
import type { RestStorage } from '../../interface.js';
import { setupModule } from '../../shared/testing.js';
import { rolesModule } from '../roles/store.js';

const fx = useEtcd();
const rbac = 'rbac.authorization.k8s.io';
const api = `/apis/${rbac}/v1`;

function as(user: UserInfo, method: string, path: string): RequestContext {
  return { ...requestContext(method, `${api}${path}`), user };
}
const groups = ['system:authenticated'];
const jane: UserInfo = { name: 'jane', groups };
const root: UserInfo = { name: 'root', groups: ['system:masters', ...groups] };

function binding(name: string, ns: string, kind: string, role: string, user: string): KubeObject {
  return {
    apiVersion: `${rbac}/v1`,
    kind: ns ? 'RoleBinding' : 'ClusterRoleBinding',
    metadata: { name, ...(ns ? { namespace: ns } : {}) },
    roleRef: { apiGroup: rbac, kind, name: role },
    subjects: [{ kind: 'User', apiGroup: rbac, name: user }],
  } as KubeObject;
}
function role(name: string, ns: string, rules: unknown[], extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: `${rbac}/v1`, kind: ns ? 'Role' : 'ClusterRole', metadata: { name, ...(ns ? { namespace: ns } : {}) }, rules, ...extra } as KubeObject;
}

describe('RBAC escalation prevention in the rbac stores', () => {
  let rf: RbacFixture;
  let stores: Record<'roles' | 'clusterroles' | 'rolebindings' | 'clusterrolebindings', RestStorage>;
  const waitAllowed = async (user: UserInfo, verb: string, resource: string, ns: string, group = ''): Promise<void> => {
    await rf.until(
      async () =>
        (await rf.authorization.authorizer.authorize({ user, verb, isResourceRequest: true, path: '', namespace: ns, apiGroup: group, apiVersion: 'v1', resource, subresource: '', name: '' })).decision === 'Allow',
    );
  };

  before(async () => {
    rf = await startRbacFixture(fx);
    const s = (r: string) => rf.storageOf(rbac, r) as RestStorage;
    stores = { roles: s('roles'), clusterroles: s('clusterroles'), rolebindings: s('rolebindings'), clusterrolebindings: s('clusterrolebindings') };
    // jane may edit in "team" and write RBAC objects (but neither bind nor escalate).
    await stores.rolebindings.create?.(as(root, 'POST', '/namespaces/team/rolebindings'), binding('jane-edit', 'team', 'ClusterRole', 'edit', 'jane'), { dryRun: false });
    await stores.clusterroles.create?.(as(root, 'POST', '/clusterroles'), role('rbac-writer', '', [{ verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], apiGroups: [rbac], resources: ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'] }]), { dryRun: false });
    await stores.clusterrolebindings.create?.(as(root, 'POST', '/clusterrolebindings'), binding('jane-rbac', '', 'ClusterRole', 'rbac-writer', 'jane'), { dryRun: false });
    await waitAllowed(jane, 'create', 'deployments', 'team', 'apps');
    await waitAllowed(jane, 'create', 'clusterroles', '', rbac);
  });
  after(() => rf?.stop());

  it('refuses a RoleBinding to cluster-admin by an edit user, with kube 403 and the missing rules', async () => {
    const s = await statusOf(stores.rolebindings.create?.(as(jane, 'POST', '/namespaces/team/rolebindings'), binding('steal', 'team', 'ClusterRole', 'cluster-admin', 'jane'), { dryRun: false }) as Promise<unknown>);
    assert.equal(s.code, 403);
    assert.equal(s.reason, 'Forbidden');
    assert.equal(
      s.message,
      'rolebindings.rbac.authorization.k8s.io "steal" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}',
    );
  });

  it('allows a RoleBinding to a role whose permissions the user holds (view inside edit), in that namespace only', async () => {
    const ok = await stores.rolebindings.create?.(as(jane, 'POST', '/namespaces/team/rolebindings'), binding('friend-view', 'team', 'ClusterRole', 'view', 'friend'), { dryRun: false });
    assert.equal(ok?.metadata.name, 'friend-view');
    const s = await statusOf(stores.rolebindings.create?.(as(jane, 'POST', '/namespaces/elsewhere/rolebindings'), binding('friend-view', 'elsewhere', 'ClusterRole', 'view', 'friend'), { dryRun: false }) as Promise<unknown>);
    assert.equal(s.code, 403);
    assert.match(s.message ?? '', /^rolebindings.rbac.authorization.k8s.io "friend-view" is forbidden: user "jane" .* not currently held:\n/);
    assert.match(s.message ?? '', /\n\{APIGroups:\[""\], Resources:\["configmaps"\], Verbs:\["get" "list" "watch"\]\}\n/);
  });

  it('allows binding with the bind verb, honouring resourceNames', async () => {
    await stores.clusterroles.create?.(as(root, 'POST', '/clusterroles'), role('bind-admin', '', [{ verbs: ['bind'], apiGroups: [rbac], resources: ['clusterroles'], resourceNames: ['admin'] }]), { dryRun: false });
    await stores.clusterrolebindings.create?.(as(root, 'POST', '/clusterrolebindings'), binding('jane-bind-admin', '', 'ClusterRole', 'bind-admin', 'jane'), { dryRun: false });
    await rf.until(async () => (await rf.authorization.authorizer.authorize({ user: jane, verb: 'bind', isResourceRequest: true, path: '', namespace: 'x', apiGroup: rbac, apiVersion: '', resource: 'clusterroles', subresource: '', name: 'admin' })).decision === 'Allow');
    const ok = await stores.rolebindings.create?.(as(jane, 'POST', '/namespaces/x/rolebindings'), binding('bob-admin', 'x', 'ClusterRole', 'admin', 'bob'), { dryRun: false });
    assert.equal(ok?.metadata.name, 'bob-admin');
    const s = await statusOf(stores.rolebindings.create?.(as(jane, 'POST', '/namespaces/x/rolebindings'), binding('bob-root', 'x', 'ClusterRole', 'cluster-admin', 'bob'), { dryRun: false }) as Promise<unknown>);
    assert.equal(s.code, 403);
  });

  it('answers 404 for a binding to a missing role, unless the user may bind it', async () => {
    const s = await statusOf(stores.rolebindings.create?.(as(jane, 'POST', '/namespaces/team/rolebindings'), binding('dangling', 'team', 'Role', 'nope', 'x'), { dryRun: false }) as Promise<unknown>);
    assert.equal(s.code, 404);
    assert.equal(s.message, 'roles.rbac.authorization.k8s.io "nope" not found');
    const created = await stores.rolebindings.create?.(as(root, 'POST', '/namespaces/team/rolebindings'), binding('dangling', 'team', 'Role', 'nope', 'x'), { dryRun: false });
    assert.equal(created?.metadata.name, 'dangling');
  });

  it('refuses a Role granting more than the user holds in its namespace; escalate on roles allows it', async () => {
    const grant = role('deleter', 'team', [{ verbs: ['delete'], apiGroups: [''], resources: ['nodes'] }, { verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    const s = await statusOf(stores.roles.create?.(as(jane, 'POST', '/namespaces/team/roles'), structuredClone(grant), { dryRun: false }) as Promise<unknown>);
    assert.equal(s.code, 403);
    assert.equal(
      s.message,
      'roles.rbac.authorization.k8s.io "deleter" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["nodes"], Verbs:["delete"]}',
    );
    const held = role('reader', 'team', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'configmaps'] }]);
    assert.equal((await stores.roles.create?.(as(jane, 'POST', '/namespaces/team/roles'), held, { dryRun: false }))?.metadata.name, 'reader');
    // Updating it beyond what jane holds is refused the same way.
    const upd = await statusOf(
      stores.roles.update?.(as(jane, 'PATCH', '/namespaces/team/roles/reader'), 'reader', patchWith((r) => ((r as KubeObject & { rules?: unknown[] }).rules = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }])), { dryRun: false }) as Promise<unknown>,
    );
    assert.equal(upd.code, 403);
    await stores.clusterroles.create?.(as(root, 'POST', '/clusterroles'), role('escalator', '', [{ verbs: ['escalate'], apiGroups: [rbac], resources: ['roles'] }]), { dryRun: false });
    await stores.clusterrolebindings.create?.(as(root, 'POST', '/clusterrolebindings'), binding('jane-escalate', '', 'ClusterRole', 'escalator', 'jane'), { dryRun: false });
    await rf.until(async () => (await rf.authorization.authorizer.authorize({ user: jane, verb: 'escalate', isResourceRequest: true, path: '', namespace: 'team', apiGroup: rbac, apiVersion: '*', resource: 'roles', subresource: '', name: '' })).decision === 'Allow');
    assert.equal((await stores.roles.create?.(as(jane, 'POST', '/namespaces/team/roles'), structuredClone(grant), { dryRun: false }))?.metadata.name, 'deleter');
  });

  it('needs cluster-admin permissions to set an aggregation rule', async () => {
    const aggregated = role('gatherer', '', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } });
    const s = await statusOf(stores.clusterroles.create?.(as(jane, 'POST', '/clusterroles'), structuredClone(aggregated), { dryRun: false }) as Promise<unknown>);
    assert.equal(s.code, 403);
    assert.equal(s.message, 'clusterroles.rbac.authorization.k8s.io "gatherer" is forbidden: must have cluster-admin privileges to use the aggregationRule');
    assert.equal((await stores.clusterroles.create?.(as(root, 'POST', '/clusterroles'), structuredClone(aggregated), { dryRun: false }))?.metadata.name, 'gatherer');
  });

  it('lets an update that only changes finalizers or owner references through', async () => {
    await stores.clusterroles.create?.(as(root, 'POST', '/clusterroles'), role('big', '', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]), { dryRun: false });
    const res = await stores.clusterroles.update?.(as(jane, 'PATCH', '/clusterroles/big'), 'big', patchWith((r) => (r.metadata.finalizers = ['example.com/keep'])), { dryRun: false });
    assert.deepEqual(res?.object.metadata.finalizers, ['example.com/keep']);
    const s = await statusOf(stores.clusterroles.update?.(as(jane, 'PATCH', '/clusterroles/big'), 'big', patchWith((r) => (r.metadata.labels = { x: 'y' })), { dryRun: false }) as Promise<unknown>);
    assert.equal(s.code, 403);
  });

  it('a store built without security (tests of other things) writes without checks', async () => {
    const { regs } = setupModule(fx, rolesModule);
    const store = regs[0]?.main as RestStorage;
    const created = await store.create?.(as(jane, 'POST', '/namespaces/a/roles'), role('any', 'a', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]), { dryRun: false });
    assert.equal(created?.metadata.name, 'any');
  });
});
