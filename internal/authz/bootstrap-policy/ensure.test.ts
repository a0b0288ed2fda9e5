import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { useEtcd } from '../../../test/support/etcd.js';
import { ResourceClient } from '../../controllers/resource-client.js';
import { createLogger } from '../../observability/logging.js';
import { clusterRoleBindingsModule } from '../../registry/rbac/clusterrolebindings/store.js';
import { clusterRolesModule } from '../../registry/rbac/clusterroles/store.js';
import { roleBindingsModule } from '../../registry/rbac/rolebindings/store.js';
import { rolesModule } from '../../registry/rbac/roles/store.js';
import type { ResourceModule } from '../../registry/registration.js';
import { setupModule } from '../../registry/shared/testing.js';
import type { BindingObject, RoleObject } from '../rbac/types.js';
import { reconcileBootstrapPolicy, type BootstrapClients } from './ensure.js';
import { bootstrapPolicy } from './policy.js';

const fx = useEtcd();
const rbac = 'rbac.authorization.k8s.io';

function clients(): BootstrapClients {
  const c = (m: ResourceModule, resource: string) => new ResourceClient(setupModule(fx, m).regs[0]?.main as never, rbac, resource);
  return { clusterRoles: c(clusterRolesModule, 'clusterroles'), clusterRoleBindings: c(clusterRoleBindingsModule, 'clusterrolebindings'), roles: c(rolesModule, 'roles'), roleBindings: c(roleBindingsModule, 'rolebindings') };
}

describe('bootstrap policy hook over etcd', () => {
  it('migrates an old cluster (admin with its own rules, discovery for everyone), then creates the rest', async () => {
    const log = createLogger(0, true);
    const c = clients();
    const custom = { verbs: ['get'], apiGroups: ['example.com'], resources: ['things'] };
    await c.clusterRoles.create({ apiVersion: `${rbac}/v1`, kind: 'ClusterRole', metadata: { name: 'admin' }, rules: [custom] } as KubeObject);
    const oldSubjects = [{ kind: 'Group', apiGroup: rbac, name: 'system:authenticated' }, { kind: 'Group', apiGroup: rbac, name: 'system:unauthenticated' }, { kind: 'User', apiGroup: rbac, name: 'kept' }];
    await c.clusterRoleBindings.create({
      apiVersion: `${rbac}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:discovery' },
      roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'system:discovery' },
      subjects: oldSubjects,
    } as KubeObject);

    assert.equal(await reconcileBootstrapPolicy(c, log), true);
    const moved = (await c.clusterRoles.get('system:aggregate-to-admin')) as RoleObject;
    assert.deepEqual(moved.rules?.[0], custom, 'the old admin rules moved to the aggregated name');
    assert.ok((moved.rules?.length ?? 0) > 1, 'and the bootstrap rules were added');
    const admin = (await c.clusterRoles.get('admin')) as RoleObject;
    assert.deepEqual(admin.aggregationRule, { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }] });
    const viewer = (await c.clusterRoleBindings.get('system:public-info-viewer')) as BindingObject;
    assert.deepEqual(viewer.subjects?.map((s) => s.name), ['system:authenticated', 'system:unauthenticated', 'kept']);

    const policy = bootstrapPolicy();
    assert.equal((await c.clusterRoles.list()).length, policy.clusterRoles.length);
    assert.equal((await c.roleBindings.list()).length, policy.roleBindings.length);

    // A second start writes nothing.
    const versions = async () => (await c.clusterRoles.list()).map((o) => o.metadata.resourceVersion).join();
    const before = await versions();
    assert.equal(await reconcileBootstrapPolicy(c, log), true);
    assert.equal(await versions(), before);
  });
});
