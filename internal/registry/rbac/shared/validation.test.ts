import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messages } from '../../shared/testing-messages.js';
import { defaultBinding, validateBinding, validateRoleRefUnchanged, validateRules } from './validation.js';

describe('RBAC validation', () => {
  it('checks policy rules', () => {
    assert.deepEqual(messages(validateRules([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }], true)), []);
    assert.deepEqual(messages(validateRules([{ apiGroups: [''], resources: ['pods'] }], true)), ['rules[0].verbs: Required value: verbs must contain at least one value']);
    assert.deepEqual(messages(validateRules([{ verbs: ['get'] }], true)), [
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
    ]);
    assert.deepEqual(messages(validateRules([{ verbs: ['get'], nonResourceURLs: ['/healthz'] }], true)), [
      'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs',
    ]);
    assert.deepEqual(messages(validateRules([{ verbs: ['get'], nonResourceURLs: ['/healthz'], resources: ['pods'] }], false)), [
      'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: rules cannot apply to both regular resources and non-resource URLs',
    ]);
  });

  it('checks role references and subjects', () => {
    const ok = { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, subjects: [{ kind: 'ServiceAccount', name: 'default' }] };
    assert.deepEqual(messages(validateBinding(ok, true)), []);
    assert.deepEqual(messages(validateBinding(ok, false)), [
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      'subjects[0].namespace: Required value',
    ]);
    assert.deepEqual(messages(validateBinding({ roleRef: { kind: 'ClusterRole' }, subjects: [{ kind: 'Robot', name: 'x' }, { kind: 'User', name: 'u', apiGroup: 'v1' }] }, true)), [
      'roleRef.apiGroup: Unsupported value: "": supported values: "rbac.authorization.k8s.io"',
      'roleRef.name: Required value',
      'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      'subjects[1].apiGroup: Unsupported value: "v1": supported values: "rbac.authorization.k8s.io"',
    ]);
  });

  it('refuses a roleRef change', () => {
    const before = { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' } };
    const after = { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' } };
    assert.deepEqual(messages(validateRoleRefUnchanged(after, before)), [
      'roleRef: Invalid value: {"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"edit"}: cannot change roleRef',
    ]);
  });

  it('defaults roleRef and subject API groups', () => {
    const b: Record<string, any> = { roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'u' }, { kind: 'ServiceAccount', name: 's' }, { kind: 'Group', name: 'g' }] };
    defaultBinding(b);
    assert.equal(b.roleRef.apiGroup, 'rbac.authorization.k8s.io');
    assert.deepEqual(b.subjects.map((s: Record<string, unknown>) => s.apiGroup), ['rbac.authorization.k8s.io', '', 'rbac.authorization.k8s.io']);
  });
});
