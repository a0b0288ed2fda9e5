/** rbac bindings: columns and cells as kube prints them (cf. kube's TestPrintRoleBinding). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterRoleBindingPrinter, roleBindingPrinter } from './rbac.js';
import { ago, columnSpec, now } from './testing.js';

const subjects = [
  { kind: 'User', name: 'system:admin' },
  { kind: 'Group', name: 'system:masters' },
  { kind: 'ServiceAccount', namespace: 'kube-system', name: 'default' },
  { kind: 'User', name: 'jane' },
  { kind: 'Robot', name: 'r2' },
];

describe('rolebindings and clusterrolebindings', () => {
  for (const printer of [roleBindingPrinter, clusterRoleBindingPrinter]) {
    it('have kube columns', () => {
      assert.deepEqual(columnSpec(printer), [
        ['Name', 'string', 'name', 0],
        ['Role', 'string', '', 0],
        ['Age', 'string', '', 0],
        ['Users', 'string', '', 1],
        ['Groups', 'string', '', 1],
        ['ServiceAccounts', 'string', '', 1],
      ]);
    });
    it('print the role and the subjects by kind', () => {
      const binding = { metadata: { name: 'admins', creationTimestamp: ago(75) }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' }, subjects };
      assert.deepEqual(printer.cells(binding, now), ['admins', 'ClusterRole/cluster-admin', '75s', 'system:admin, jane', 'system:masters', 'kube-system/default']);
    });
  }
  it('print empty subject lists as empty strings', () => {
    assert.deepEqual(roleBindingPrinter.cells({ metadata: { name: 'b' }, roleRef: { kind: 'Role', name: 'r' } }, now), ['b', 'Role/r', '<unknown>', '', '', '']);
  });
});
