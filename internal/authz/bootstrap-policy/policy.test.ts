import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BindingObject, RoleObject } from '../rbac/types.js';
import type { PolicyRule } from '../rules.js';
import { expectedAggregation, expectedClusterRoleBindings, expectedClusterRoles, expectedRoleBindings, expectedRoles } from './kube-1.33-policy.fixture.js';
import { bootstrapPolicy } from './policy.js';

/** A rule in the fixture's notation: "verbs|groups|resources|names" or "verbs|urls". */
function notation(r: PolicyRule): string {
  if ((r.nonResourceURLs?.length ?? 0) > 0) return `${r.verbs.join(',')}|${(r.nonResourceURLs ?? []).join(',')}`;
  const base = `${r.verbs.join(',')}|${(r.apiGroups ?? []).join(',')}|${(r.resources ?? []).join(',')}`;
  return (r.resourceNames?.length ?? 0) > 0 ? `${base}|${(r.resourceNames ?? []).join(',')}` : base;
}

function subjects(b: BindingObject): string[] {
  return (b.subjects ?? []).map((s) => {
    if (s.kind === 'ServiceAccount') {
      assert.equal(s.apiGroup, undefined, `${b.metadata.name}: service account subjects have no apiGroup`);
      return `SA:${s.namespace}/${s.name}`;
    }
    assert.equal(s.apiGroup, 'rbac.authorization.k8s.io');
    return `${s.kind}:${s.name}`;
  });
}

function keyed<T extends RoleObject | BindingObject>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((o) => [o.metadata.namespace ? `${o.metadata.namespace}/${o.metadata.name}` : (o.metadata.name ?? ''), o]));
}

describe('bootstrap policy: what kube-apiserver 1.33 creates', () => {
  const policy = bootstrapPolicy();

  it('has exactly the ClusterRoles of kube 1.33, each with the same rules in the same order', () => {
    const roles = keyed(policy.clusterRoles);
    assert.deepEqual([...roles.keys()].sort(), Object.keys(expectedClusterRoles).sort());
    for (const [name, rules] of Object.entries(expectedClusterRoles)) {
      assert.deepEqual((roles.get(name)?.rules ?? []).map(notation), rules, name);
    }
  });

  it('aggregates admin, edit and view through the aggregate-to-* labels', () => {
    const roles = keyed(policy.clusterRoles);
    for (const [name, want] of Object.entries(expectedAggregation)) {
      const role = roles.get(name) as RoleObject;
      const { 'kubernetes.io/bootstrapping': _b, ...labels } = role.metadata.labels ?? {};
      assert.deepEqual(labels, want.labels ?? {}, name);
      const selectors = role.aggregationRule?.clusterRoleSelectors;
      assert.deepEqual(selectors, want.selects ? [{ matchLabels: { [want.selects]: 'true' } }] : undefined, name);
    }
    const others = policy.clusterRoles.filter((r) => !((r.metadata.name ?? '') in expectedAggregation) && r.aggregationRule);
    assert.deepEqual(others.map((r) => r.metadata.name), []);
  });

  it('has exactly the ClusterRoleBindings of kube 1.33', () => {
    const bindings = keyed(policy.clusterRoleBindings);
    assert.deepEqual([...bindings.keys()].sort(), Object.keys(expectedClusterRoleBindings).sort());
    for (const [name, [ref, ...subs]] of Object.entries(expectedClusterRoleBindings)) {
      const b = bindings.get(name) as BindingObject;
      assert.equal(b.roleRef.apiGroup, 'rbac.authorization.k8s.io');
      assert.equal(`${b.roleRef.kind}/${b.roleRef.name}`, ref, name);
      assert.deepEqual(subjects(b), subs, name);
    }
  });

  it('has exactly the Roles and RoleBindings of kube 1.33 in kube-system and kube-public', () => {
    const roles = keyed(policy.roles);
    assert.deepEqual([...roles.keys()].sort(), Object.keys(expectedRoles).sort());
    for (const [key, rules] of Object.entries(expectedRoles)) assert.deepEqual((roles.get(key)?.rules ?? []).map(notation), rules, key);
    const bindings = keyed(policy.roleBindings);
    assert.deepEqual([...bindings.keys()].sort(), Object.keys(expectedRoleBindings).sort());
    for (const [key, [ref, ...subs]] of Object.entries(expectedRoleBindings)) {
      const b = bindings.get(key) as BindingObject;
      assert.equal(`${b.roleRef.kind}/${b.roleRef.name}`, ref, key);
      assert.deepEqual(subjects(b), subs, key);
    }
  });

  it('labels every object kubernetes.io/bootstrapping=rbac-defaults and annotates it autoupdate=true', () => {
    const all = [...policy.clusterRoles, ...policy.clusterRoleBindings, ...policy.roles, ...policy.roleBindings];
    assert.equal(all.length, Object.keys(expectedClusterRoles).length + Object.keys(expectedClusterRoleBindings).length + Object.keys(expectedRoles).length + Object.keys(expectedRoleBindings).length);
    for (const o of all) {
      assert.equal(o.metadata.labels?.['kubernetes.io/bootstrapping'], 'rbac-defaults', o.metadata.name);
      assert.deepEqual(o.metadata.annotations, { 'rbac.authorization.kubernetes.io/autoupdate': 'true' }, o.metadata.name);
      assert.equal(o.apiVersion, 'rbac.authorization.k8s.io/v1');
    }
  });
});
