import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PolicyRule } from '../rules.js';
import { compactRules, compactString } from './compact.js';
import { breakdownRule, covers } from './covers.js';
import { confirmNoEscalation, escalationAllowed } from './escalation.js';
import type { RbacRuleResolver } from './types.js';

function resolver(rules: PolicyRule[], errors: string[] = []): RbacRuleResolver {
  return { policyRulesFor: () => ({ rules, errors }) };
}

describe('policy rule coverage (kube Covers)', () => {
  it('breaks rules down into one verb, group, resource and name each', () => {
    assert.deepEqual(breakdownRule({ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }), [
      { apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['list'], resourceNames: ['a'] },
    ]);
    assert.deepEqual(breakdownRule({ verbs: ['get'], nonResourceURLs: ['/a', '/b'] }), [
      { nonResourceURLs: ['/a'], verbs: ['get'] },
      { nonResourceURLs: ['/b'], verbs: ['get'] },
    ]);
  });

  it('wildcards, */subresource, resourceNames and URL prefixes cover what they should, and no more', () => {
    const owner: PolicyRule[] = [
      { verbs: ['*'], apiGroups: ['apps'], resources: ['*'] },
      { verbs: ['get'], apiGroups: [''], resources: ['*/status'] },
      { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'] },
      { verbs: ['get'], nonResourceURLs: ['/logs/*'] },
    ];
    assert.equal(covers(owner, [{ verbs: ['delete'], apiGroups: ['apps'], resources: ['deployments/scale'] }]).covered, true);
    assert.equal(covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['pods/status', 'nodes/status'] }]).covered, true);
    assert.equal(covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]).covered, false);
    assert.equal(covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['b'] }]).covered, true);
    // A rule for every name is more than a rule for some names.
    assert.equal(covers(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }]).covered, false);
    assert.equal(covers(owner, [{ verbs: ['get'], nonResourceURLs: ['/logs/kube'] }]).covered, true);
    assert.equal(covers(owner, [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }]).covered, false);
    assert.deepEqual(covers(owner, [{ verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['secrets'] }]).missing, [
      { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['list'] },
    ]);
  });

  it('prints and compacts missing rules as kube does', () => {
    const missing = covers([], [{ verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['secrets'] }, { verbs: ['get'], nonResourceURLs: ['/x'] }]).missing;
    assert.deepEqual(compactRules(missing).map(compactString), [
      '{NonResourceURLs:["/x"], Verbs:["get"]}',
      '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}',
      '{APIGroups:["apps"], Resources:["secrets"], Verbs:["get" "list"]}',
    ]);
    assert.equal(compactString({ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }), '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["a"], Verbs:["get"]}');
  });
});

describe('ConfirmNoEscalation', () => {
  const user = { name: 'jane', groups: ['editors', 'system:authenticated'] };
  it('passes when the user holds every permission', () => {
    assert.equal(confirmNoEscalation(resolver([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]), user, 'ns', [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] }]), undefined);
  });
  it("lists what is missing in kube's words, sorted, with resolution errors", () => {
    const msg = confirmNoEscalation(
      resolver([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], ['clusterrole.rbac.authorization.k8s.io "gone" not found']),
      user,
      'ns',
      [
        { verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods', 'secrets'] },
        { verbs: ['*'], nonResourceURLs: ['*'] },
      ],
    );
    assert.equal(
      msg,
      'user "jane" (groups=["editors" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}\n' +
        '{NonResourceURLs:["*"], Verbs:["*"]}' +
        '; resolution errors: [clusterrole.rbac.authorization.k8s.io "gone" not found]',
    );
  });
  it('system:masters may always', () => {
    assert.equal(escalationAllowed({ name: 'x', groups: ['system:masters'] }), true);
    assert.equal(escalationAllowed(user), false);
  });
});
