/**
 * OwnerReferencesPermissionEnforcement with RBAC: a user who may create and update ConfigMaps but
 * not delete them, nor update deployments/finalizers, may create a ConfigMap with an owner
 * reference, but not add one later, nor set blockOwnerDeletion on a reference to a Deployment.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../support/server.js';
import { bearer, tokenAuthFileFlag } from '../support/static-tokens.js';

const users = [
  { token: 'root-token-0123456789', name: 'root', uid: 'root-uid', groups: ['system:masters'] },
  { token: 'jane-token-0123456789', name: 'jane', uid: 'jane-uid' },
] as const;
const root = bearer(users[0].token);
const jane = bearer(users[1].token);
const cms = '/api/v1/namespaces/default/configmaps';

const fx = useServer({}, async () => [await tokenAuthFileFlag(users), '--authorization-mode=RBAC', '--enable-admission-plugins=OwnerReferencesPermissionEnforcement']);

async function until(pred: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('OwnerReferencesPermissionEnforcement', () => {
  it('checks delete on the object and update on the owner\'s finalizers', async () => {
    const rbac = '/apis/rbac.authorization.k8s.io/v1/namespaces/default';
    const role = await fx.request('POST', `${rbac}/roles`, {
      headers: root,
      body: { metadata: { name: 'cm-writer' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create', 'update', 'patch'] }] },
    });
    assert.equal(role.status, 201, role.text);
    const binding = await fx.request('POST', `${rbac}/rolebindings`, {
      headers: root,
      body: { metadata: { name: 'jane-cm' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-writer' }, subjects: [{ kind: 'User', name: 'jane' }] },
    });
    assert.equal(binding.status, 201, binding.text);
    await until(async () => (await fx.request('GET', `${cms}/none`, { headers: jane })).status === 404);

    const owner = (await fx.request('POST', cms, { headers: root, body: { metadata: { name: 'owner' } } })).json();
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid };
    assert.equal((await fx.request('POST', cms, { headers: jane, body: { metadata: { name: 'child', ownerReferences: [ref] } } })).status, 201);

    const plain = await fx.request('POST', cms, { headers: jane, body: { metadata: { name: 'plain' } } });
    assert.equal(plain.status, 201);
    const adopt = await fx.request('PATCH', `${cms}/plain`, { headers: { ...jane, 'content-type': 'application/merge-patch+json' }, rawBody: JSON.stringify({ metadata: { ownerReferences: [ref] } }) });
    assert.equal(adopt.status, 403);
    assert.equal(adopt.json().message, 'configmaps "plain" is forbidden: cannot set an ownerRef on a resource you can\'t delete: , <nil>');

    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'a0b1c2d3-0000-4000-8000-00000000000a', blockOwnerDeletion: true };
    const blocked = await fx.request('POST', cms, { headers: jane, body: { metadata: { name: 'blocker', ownerReferences: [deployment] } } });
    assert.equal(blocked.status, 403);
    assert.equal(blocked.json().message, 'configmaps "blocker" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can\'t set finalizers on: , <nil>');
    // The same as root (system:masters) is allowed.
    assert.equal((await fx.request('POST', cms, { headers: root, body: { metadata: { name: 'blocker', ownerReferences: [deployment] } } })).status, 201);
  });
});
