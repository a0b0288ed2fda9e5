import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BindingObject, RoleObject } from '../rbac/types.js';
import { reconcileBinding } from './reconcile-binding.js';
import { reconcileRole } from './reconcile-role.js';

const expectedRole: RoleObject = {
  metadata: { name: 'r', labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' }, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } },
  rules: [
    { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
    { verbs: ['get'], nonResourceURLs: ['/healthz'] },
  ],
};

describe('bootstrap role reconciliation', () => {
  it('leaves a role that already has everything alone, whatever else it has', () => {
    const existing: RoleObject = {
      metadata: { name: 'r', labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', team: 'a' }, annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } },
      rules: [{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }, { verbs: ['get'], nonResourceURLs: ['/healthz'] }, { verbs: ['delete'], apiGroups: ['apps'], resources: ['*'] }],
    };
    assert.equal(reconcileRole(existing, expectedRole).operation, 'none');
  });

  it("adds missing rules (broken down), labels and annotations, keeping the user's additions", () => {
    const existing: RoleObject = { metadata: { name: 'r', labels: { team: 'a' } }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['create'], apiGroups: [''], resources: ['secrets'] }] };
    const r = reconcileRole(existing, expectedRole);
    assert.equal(r.operation, 'update');
    assert.equal(r.protected, false);
    assert.deepEqual(r.role.rules, [
      { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
      { verbs: ['create'], apiGroups: [''], resources: ['secrets'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
      { nonResourceURLs: ['/healthz'], verbs: ['get'] },
    ]);
    assert.deepEqual(r.role.metadata.labels, { 'kubernetes.io/bootstrapping': 'rbac-defaults', team: 'a' });
    assert.deepEqual(r.role.metadata.annotations, { 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
    assert.deepEqual(existing.rules?.length, 2, 'existing is not mutated');
  });

  it('marks a role with autoupdate=false protected (the annotation is the administrator value)', () => {
    const existing: RoleObject = { metadata: { name: 'r', annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [] };
    const r = reconcileRole(existing, expectedRole);
    assert.equal(r.protected, true);
    assert.equal(r.role.metadata.annotations?.['rbac.authorization.kubernetes.io/autoupdate'], 'false');
  });

  it('adds missing aggregation selectors and keeps extra ones; removes an aggregation rule the policy does not have', () => {
    const sel = (k: string) => ({ matchLabels: { [k]: 'true' } });
    const expected: RoleObject = { metadata: { name: 'admin' }, aggregationRule: { clusterRoleSelectors: [sel('a')] }, rules: [] };
    const extra: RoleObject = { metadata: { name: 'admin' }, aggregationRule: { clusterRoleSelectors: [sel('mine')] }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] };
    const r = reconcileRole(extra, expected);
    assert.deepEqual(r.role.aggregationRule, { clusterRoleSelectors: [sel('mine'), sel('a')] });
    assert.deepEqual(r.role.rules, extra.rules, 'aggregated rules are the controller s business');
    assert.equal(reconcileRole({ ...structuredClone(extra), aggregationRule: { clusterRoleSelectors: [sel('a')] } }, expected).operation, 'none');
    const plain = reconcileRole(extra, { metadata: { name: 'admin' }, rules: [] });
    assert.equal(plain.operation, 'update');
    assert.equal(plain.role.aggregationRule, undefined);
  });
});

describe('bootstrap binding reconciliation', () => {
  const expected: BindingObject = {
    metadata: { name: 'b', annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' },
    subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'g' }, { kind: 'ServiceAccount', name: 's', namespace: 'kube-system' }],
  };
  it("adds missing subjects after the administrator's", () => {
    const existing: BindingObject = {
      metadata: { name: 'b', annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' } },
      roleRef: expected.roleRef,
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'mine' }, { kind: 'ServiceAccount', apiGroup: '', name: 's', namespace: 'kube-system' }],
    };
    const r = reconcileBinding(existing, expected);
    assert.equal(r.operation, 'update');
    assert.deepEqual(r.binding.subjects?.map((s) => s.name), ['mine', 's', 'g']);
  });
  it('recreates a binding whose roleRef differs, and protects one with autoupdate=false', () => {
    const other: BindingObject = { metadata: { name: 'b' }, roleRef: { ...expected.roleRef, name: 'other' }, subjects: [] };
    assert.equal(reconcileBinding(other, expected).operation, 'recreate');
    const locked = { ...structuredClone(other), metadata: { name: 'b', annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } } };
    assert.equal(reconcileBinding(locked, expected).protected, true);
  });
});
