import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta/types.js';
import type { RoleObject } from '../authz/rbac/types.js';
import { aggregatedRules } from './clusterrole-aggregation.js';

function role(name: string, labels: Record<string, string>, rules: unknown[], selectors?: unknown[]): RoleObject {
  return { metadata: { name, labels }, rules, ...(selectors ? { aggregationRule: { clusterRoleSelectors: selectors } } : {}) } as RoleObject;
}

describe('ClusterRole aggregation', () => {
  const pods = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };
  const nodes = { verbs: ['list'], apiGroups: [''], resources: ['nodes'] };
  const secrets = { verbs: ['get'], apiGroups: [''], resources: ['secrets'] };

  it('is the union of the matching roles rules, by selector then by name, each rule once, never its own', () => {
    const target = role('target', { a: 'true' }, [secrets], [{ matchLabels: { a: 'true' } }, { matchExpressions: [{ key: 'b', operator: 'Exists' }] }]);
    const roles: KubeObject[] = [target, role('z', { a: 'true' }, [nodes]), role('m', { a: 'true' }, [pods, nodes]), role('b-only', { b: 'x' }, [secrets, pods]), role('other', {}, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }])];
    assert.deepEqual(aggregatedRules(target, roles), [pods, nodes, secrets]);
  });

  it('is empty when nothing matches, and refuses an invalid selector', () => {
    assert.deepEqual(aggregatedRules(role('t', {}, [pods], [{ matchLabels: { none: 'true' } }]), [role('x', {}, [nodes])]), []);
    assert.throws(() => aggregatedRules(role('t', {}, [], [{ matchExpressions: [{ key: 'a', operator: 'Bogus' }] }]), []));
  });
});
