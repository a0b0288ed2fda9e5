import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { RbacIndex } from './index.js';

const rbac = 'rbac.authorization.k8s.io';
const role = (ns: string, name: string): KubeObject => ({ metadata: { name, ...(ns ? { namespace: ns } : {}) }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] }) as KubeObject;
const binding = (ns: string, name: string, kind: string, roleName: string, subjects: unknown[]): KubeObject =>
  ({ metadata: { name, ...(ns ? { namespace: ns } : {}) }, roleRef: { apiGroup: rbac, kind, name: roleName }, subjects }) as KubeObject;

describe('RBAC index', () => {
  it('indexes bindings by user, service account user and group, per scope', () => {
    const index = new RbacIndex();
    index.setRole(role('', 'r'));
    index.setBinding(binding('ns', 'b', 'ClusterRole', 'r', [{ kind: 'User', name: 'u' }, { kind: 'ServiceAccount', name: 'sa' }, { kind: 'Group', name: 'g' }]));
    const rules = (user: string, groups: string[], ns: string) => index.policyRulesFor({ name: user, groups }, ns).rules.length;
    assert.equal(rules('u', [], 'ns'), 1);
    assert.equal(rules('system:serviceaccount:ns:sa', [], 'ns'), 1);
    assert.equal(rules('nobody', ['g'], 'ns'), 1);
    assert.equal(rules('u', [], 'other'), 0);
    assert.equal(rules('u', [], ''), 0);
  });

  it('forgets role slots and namespaces once nothing refers to them (no growth with churn)', () => {
    const index = new RbacIndex();
    for (let i = 0; i < 50; i++) {
      const ns = `ns-${i}`;
      index.setBinding(binding(ns, 'b', 'Role', 'r', [{ kind: 'User', name: 'u' }]));
      index.setRole(role(ns, 'r'));
      index.setBinding(binding(ns, 'b', 'Role', 'r', [{ kind: 'User', name: 'v' }]));
    }
    assert.deepEqual(index.size(), { slots: 50, bindings: 50, namespaces: 50 });
    for (let i = 0; i < 50; i++) {
      const ns = `ns-${i}`;
      index.deleteRole(role(ns, 'r'));
      index.deleteBinding(binding(ns, 'b', 'Role', 'r', []));
    }
    assert.deepEqual(index.size(), { slots: 0, bindings: 0, namespaces: 0 });
  });

  it('a binding created before its role sees the role once it exists, and loses it when deleted', () => {
    const index = new RbacIndex();
    index.setBinding(binding('', 'b', 'ClusterRole', 'later', [{ kind: 'User', name: 'u' }]));
    assert.deepEqual(index.policyRulesFor({ name: 'u', groups: [] }, '').errors, ['clusterrole.rbac.authorization.k8s.io "later" not found']);
    index.setRole(role('', 'later'));
    assert.equal(index.policyRulesFor({ name: 'u', groups: [] }, '').rules.length, 1);
    index.deleteRole(role('', 'later'));
    assert.equal(index.policyRulesFor({ name: 'u', groups: [] }, '').rules.length, 0);
    assert.equal(index.size().slots, 1, 'the binding still holds its slot');
  });

  it('a ClusterRoleBinding to a Role never resolves', () => {
    const index = new RbacIndex();
    index.setRole(role('ns', 'r'));
    index.setBinding(binding('', 'b', 'Role', 'r', [{ kind: 'User', name: 'u' }]));
    assert.deepEqual(index.policyRulesFor({ name: 'u', groups: [] }, 'ns').errors, ['role.rbac.authorization.k8s.io "r" not found']);
  });
});
