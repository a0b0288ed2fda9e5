import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isExemptAdmissionConfiguration, ruleMatches, type RuleTarget } from './rules.js';

const pod: RuleTarget = { operation: 'CREATE', group: '', version: 'v1', resource: 'pods', subresource: '', namespace: 'default' };
const base = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] };

describe('webhook rules', () => {
  it('matches operation, group, version and resource exactly or by "*"', () => {
    assert.equal(ruleMatches(base, pod), true);
    assert.equal(ruleMatches({ ...base, operations: ['UPDATE'] }, pod), false);
    assert.equal(ruleMatches({ ...base, operations: ['*'] }, pod), true);
    assert.equal(ruleMatches({ ...base, apiGroups: ['apps'] }, pod), false);
    assert.equal(ruleMatches({ ...base, apiVersions: ['v2'] }, pod), false);
    assert.equal(ruleMatches({ ...base, resources: ['*'] }, pod), true);
    assert.equal(ruleMatches({ ...base, resources: [] }, pod), false);
  });

  it('matches subresources only through the resource/subresource forms', () => {
    const status = { ...pod, operation: 'UPDATE', subresource: 'status' };
    const any = { ...base, operations: ['*'] };
    assert.equal(ruleMatches(any, status), false, '"pods" does not match pods/status');
    assert.equal(ruleMatches({ ...any, resources: ['pods/status'] }, status), true);
    assert.equal(ruleMatches({ ...any, resources: ['*/status'] }, status), true);
    assert.equal(ruleMatches({ ...any, resources: ['pods/*'] }, status), true);
    assert.equal(ruleMatches({ ...any, resources: ['pods/*'] }, pod), true, 'pods/* matches the pod itself too');
    assert.equal(ruleMatches({ ...any, resources: ['*'] }, status), false);
    assert.equal(ruleMatches({ ...any, resources: ['*/*'] }, status), true);
  });

  it('scopes: a namespace object is cluster-scoped', () => {
    const ns: RuleTarget = { operation: 'CREATE', group: '', version: 'v1', resource: 'namespaces', subresource: '', namespace: 'x' };
    const all = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] };
    assert.equal(ruleMatches({ ...all, scope: 'Namespaced' }, ns), false);
    assert.equal(ruleMatches({ ...all, scope: 'Cluster' }, ns), true);
    assert.equal(ruleMatches({ ...all, scope: 'Namespaced' }, pod), true);
    assert.equal(ruleMatches({ ...all, scope: 'Cluster' }, pod), false);
    assert.equal(ruleMatches({ ...all, scope: '*' }, pod), true);
  });

  it('exempts the admission configuration kinds', () => {
    assert.equal(isExemptAdmissionConfiguration('admissionregistration.k8s.io', 'MutatingWebhookConfiguration'), true);
    assert.equal(isExemptAdmissionConfiguration('admissionregistration.k8s.io', 'ValidatingAdmissionPolicyBinding'), true);
    assert.equal(isExemptAdmissionConfiguration('', 'Pod'), false);
  });
});
