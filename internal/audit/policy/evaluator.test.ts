import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuditAttributes } from '../interface.js';
import { PolicyRuleEvaluator, pathMatches } from './evaluator.js';
import { loadPolicyFromText } from './load.js';

function attrs(over: Partial<AuditAttributes> & { user?: AuditAttributes['user'] }): AuditAttributes {
  return {
    user: { name: 'alice', groups: ['devs', 'system:authenticated'] },
    verb: 'get',
    isResourceRequest: true,
    path: '/api/v1/namespaces/default/pods/web',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'pods',
    subresource: '',
    namespace: 'default',
    name: 'web',
    ...over,
  };
}

function evaluator(rules: string, head = ''): PolicyRuleEvaluator {
  return new PolicyRuleEvaluator(loadPolicyFromText(`apiVersion: audit.k8s.io/v1\nkind: Policy\n${head}rules:\n${rules}`));
}

describe('audit policy evaluation', () => {
  it('first matching rule wins; no match is None with the policy stages', () => {
    const e = evaluator('- level: Request\n  users: [alice]\n- level: Metadata\n  users: [alice, bob]\n', 'omitStages: [RequestReceived]\n');
    assert.equal(e.evaluate(attrs({})).level, 'Request');
    assert.equal(e.evaluate(attrs({ user: { name: 'bob', groups: [] } })).level, 'Metadata');
    assert.deepEqual(e.evaluate(attrs({ user: { name: 'carol', groups: [] } })), { level: 'None', omitStages: ['RequestReceived'], omitManagedFields: false });
  });

  it('matches users, groups and verbs', () => {
    const e = evaluator('- level: Request\n  userGroups: [devs]\n  verbs: [create, update]\n- level: Metadata\n');
    assert.equal(e.evaluate(attrs({ verb: 'create' })).level, 'Request');
    assert.equal(e.evaluate(attrs({ verb: 'get' })).level, 'Metadata');
    assert.equal(e.evaluate(attrs({ verb: 'create', user: { name: 'x', groups: ['ops'] } })).level, 'Metadata');
  });

  it('matches resources: plain, "*", resource/subresource, "*/sub", "res/*", and resourceNames', () => {
    const e = evaluator(`- level: RequestResponse
  resources: [{group: "", resources: ["pods/log"]}]
- level: Request
  resources: [{group: apps, resources: ["*/scale"]}]
- level: Metadata
  resources: [{group: "", resources: ["secrets"], resourceNames: [token]}]
- level: Request
  resources: [{group: batch, resources: ["jobs/*"]}]
- level: Metadata
  resources: [{group: "rbac.authorization.k8s.io", resources: ["*"]}]
- level: Request
  resources: [{group: "storage.k8s.io"}]
`);
    assert.equal(e.evaluate(attrs({ subresource: 'log' })).level, 'RequestResponse');
    assert.equal(e.evaluate(attrs({})).level, 'None', 'pods itself is not pods/log');
    assert.equal(e.evaluate(attrs({ apiGroup: 'apps', resource: 'deployments', subresource: 'scale' })).level, 'Request');
    assert.equal(e.evaluate(attrs({ apiGroup: 'apps', resource: 'deployments' })).level, 'None');
    assert.equal(e.evaluate(attrs({ resource: 'secrets', name: 'token' })).level, 'Metadata');
    assert.equal(e.evaluate(attrs({ resource: 'secrets', name: 'other' })).level, 'None');
    assert.equal(e.evaluate(attrs({ apiGroup: 'batch', resource: 'jobs', subresource: 'status' })).level, 'Request');
    assert.equal(e.evaluate(attrs({ apiGroup: 'batch', resource: 'jobs' })).level, 'Request', "kube's res/* also matches the resource itself");
    assert.equal(e.evaluate(attrs({ apiGroup: 'rbac.authorization.k8s.io', resource: 'roles', subresource: 'x' })).level, 'Metadata');
    assert.equal(e.evaluate(attrs({ apiGroup: 'storage.k8s.io', resource: 'storageclasses' })).level, 'Request', 'a group without resources matches all');
    assert.equal(e.evaluate(attrs({ isResourceRequest: false, resource: '', path: '/api' })).level, 'None');
  });

  it('matches namespaces, "" for cluster-scoped requests', () => {
    const e = evaluator('- level: Request\n  namespaces: [""]\n- level: Metadata\n  namespaces: [kube-system]\n');
    assert.equal(e.evaluate(attrs({ namespace: '', resource: 'nodes' })).level, 'Request');
    assert.equal(e.evaluate(attrs({ namespace: 'kube-system' })).level, 'Metadata');
    assert.equal(e.evaluate(attrs({})).level, 'None');
    assert.equal(e.evaluate(attrs({ isResourceRequest: false, namespace: '' })).level, 'None', 'namespaces match resource requests only');
  });

  it('matches non-resource URLs exactly, by a trailing "*" prefix, or "*"', () => {
    const e = evaluator('- level: Request\n  nonResourceURLs: [/healthz*, /version]\n- level: Metadata\n  nonResourceURLs: ["*"]\n');
    const nr = (path: string): AuditAttributes => attrs({ isResourceRequest: false, path, resource: '', namespace: '', name: '', apiVersion: '' });
    assert.equal(e.evaluate(nr('/healthz/etcd')).level, 'Request');
    assert.equal(e.evaluate(nr('/version')).level, 'Request');
    assert.equal(e.evaluate(nr('/version/x')).level, 'Metadata');
    assert.equal(e.evaluate(attrs({})).level, 'None', 'non-resource rules never match resource requests');
    assert.ok(pathMatches('/a/b', '/a/*'));
    assert.ok(!pathMatches('/ab', '/a/*'));
  });

  it('omitStages is the union of the policy and the rule; a rule omitManagedFields overrides the policy', () => {
    const e = evaluator('- level: Request\n  users: [alice]\n  omitStages: [ResponseStarted]\n  omitManagedFields: false\n- level: Metadata\n', 'omitStages: [RequestReceived]\nomitManagedFields: true\n');
    const alice = e.evaluate(attrs({}));
    assert.deepEqual([...alice.omitStages].sort(), ['RequestReceived', 'ResponseStarted']);
    assert.equal(alice.omitManagedFields, false);
    const bob = e.evaluate(attrs({ user: { name: 'bob', groups: [] } }));
    assert.deepEqual(bob.omitStages, ['RequestReceived']);
    assert.equal(bob.omitManagedFields, true);
  });
});
