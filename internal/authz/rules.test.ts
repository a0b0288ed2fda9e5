import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AuthorizationAttributes } from './interface.js';
import { ruleAllows, type PolicyRule } from './rules.js';

const user = { name: 'u', groups: [] };

function res(verb: string, group: string, resource: string, subresource = '', name = ''): AuthorizationAttributes {
  return { user, verb, isResourceRequest: true, path: '', namespace: 'ns', apiGroup: group, apiVersion: 'v1', resource, subresource, name };
}

function path(verb: string, p: string): AuthorizationAttributes {
  return { user, verb, isResourceRequest: false, path: p, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

describe('policy rule matching (rbac.RuleAllows)', () => {
  const pods: PolicyRule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] };
  it('verbs, groups and resources must all match; a resource rule does not cover its subresources', () => {
    assert.equal(ruleAllows(res('get', '', 'pods'), pods), true);
    assert.equal(ruleAllows(res('delete', '', 'pods'), pods), false);
    assert.equal(ruleAllows(res('get', 'apps', 'pods'), pods), false);
    assert.equal(ruleAllows(res('get', '', 'pods', 'log'), pods), false);
    assert.equal(ruleAllows(res('get', '', 'pods', 'log'), { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }), true);
  });
  it('wildcards: *, */subresource', () => {
    assert.equal(ruleAllows(res('patch', 'apps', 'deployments', 'scale'), { verbs: ['*'], apiGroups: ['*'], resources: ['*/scale'] }), true);
    assert.equal(ruleAllows(res('patch', 'apps', 'deployments'), { verbs: ['*'], apiGroups: ['*'], resources: ['*/scale'] }), false);
    assert.equal(ruleAllows(res('patch', 'apps', 'deployments', 'status'), { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }), true);
  });
  it('resourceNames restrict to named objects and never match a request without a name', () => {
    const named: PolicyRule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] };
    assert.equal(ruleAllows(res('get', '', 'configmaps', '', 'a'), named), true);
    assert.equal(ruleAllows(res('get', '', 'configmaps', '', 'b'), named), false);
    assert.equal(ruleAllows(res('list', '', 'configmaps'), named), false);
  });
  it('non-resource URLs: exact, * and trailing-* prefixes; resource rules never match paths', () => {
    assert.equal(ruleAllows(path('get', '/healthz'), { verbs: ['get'], nonResourceURLs: ['/healthz'] }), true);
    assert.equal(ruleAllows(path('get', '/healthz/etcd'), { verbs: ['get'], nonResourceURLs: ['/healthz'] }), false);
    assert.equal(ruleAllows(path('get', '/healthz/etcd'), { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }), true);
    assert.equal(ruleAllows(path('post', '/anything'), { verbs: ['*'], nonResourceURLs: ['*'] }), true);
    assert.equal(ruleAllows(path('get', '/api'), { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }), false);
  });
});
