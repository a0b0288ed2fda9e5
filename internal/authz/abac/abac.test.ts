import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { UserInfo } from '../../request/context.js';
import type { AuthorizationAttributes } from '../interface.js';
import { AbacAuthorizer } from './authorizer.js';
import { loadPolicyFile, parsePolicyFile, parsePolicyLine } from './policy.js';

const alice: UserInfo = { name: 'alice', groups: ['dev', 'system:authenticated'] };
const bob: UserInfo = { name: 'bob', groups: ['ops', 'system:authenticated'] };
const anonymous: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

function res(user: UserInfo, verb: string, resource: string, namespace = 'ns', apiGroup = '', subresource = ''): AuthorizationAttributes {
  return { user, verb, isResourceRequest: true, path: '', namespace, apiGroup, apiVersion: 'v1', resource, subresource, name: '' };
}
function path(user: UserInfo, verb: string, p: string): AuthorizationAttributes {
  return { user, verb, isResourceRequest: false, path: p, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}
const v1 = (spec: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });
const authz = (...lines: string[]): AbacAuthorizer => new AbacAuthorizer(parsePolicyFile('/p', lines.join('\n')));

describe('ABAC policy file', () => {
  it('reads v1beta1 lines, skips blanks and comments, converts "*" subjects to system:authenticated', () => {
    const text = ['# comment', '', v1({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' }), '   ', v1({ user: '*', nonResourcePath: '*', readonly: true })].join('\r\n');
    assert.deepEqual(parsePolicyFile('/p', text), [
      { user: 'alice', group: '', readonly: false, apiGroup: '*', resource: '*', namespace: '*', nonResourcePath: '' },
      { user: '', group: 'system:authenticated', readonly: true, apiGroup: '', resource: '', namespace: '', nonResourcePath: '*' },
    ]);
  });
  it('converts the legacy unversioned format with kube v0 rules', () => {
    assert.deepEqual(parsePolicyLine('{"user":"bob","resource":"pods","readonly":true}'), {
      user: 'bob', group: '', readonly: true, apiGroup: '*', resource: 'pods', namespace: '*', nonResourcePath: '',
    });
    // No subject: every authenticated user; no namespace and resource: everything, paths included.
    assert.deepEqual(parsePolicyLine('{"readonly":true}'), {
      user: '', group: 'system:authenticated', readonly: true, apiGroup: '*', resource: '*', namespace: '*', nonResourcePath: '*',
    });
    assert.equal(parsePolicyLine('{"group":"*","namespace":"x"}').group, 'system:authenticated');
  });
  it('refuses bad lines with the file, line number and line, as kube does', () => {
    assert.throws(() => parsePolicyFile('/etc/abac', `${v1({ user: 'a' })}\n{not json`), /^Error: error reading policy file \/etc\/abac, line 2: \{not json: couldn't get version\/kind; json parse error: /);
    assert.throws(
      () => parsePolicyFile('/p', `# c\n${v1({ user: 'a', readonly: 'yes' })}`),
      /line 2: .*: json: cannot unmarshal string into Go struct field Policy\.spec\.readonly of type bool$/,
    );
    assert.throws(() => parsePolicyFile('/p', '{"apiVersion":"abac.authorization.kubernetes.io/v2","kind":"Policy"}'), /line 1: .*no kind "Policy" is registered for version "abac.authorization.kubernetes.io\/v2"/);
  });
  it('a missing file is an open error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'abac-'));
    try {
      await assert.rejects(loadPolicyFile(join(dir, 'none')), { message: `open ${join(dir, 'none')}: no such file or directory` });
      await writeFile(join(dir, 'p'), `${v1({ user: 'alice', namespace: '*', resource: 'pods' })}\n`);
      assert.equal((await loadPolicyFile(join(dir, 'p'))).length, 1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('ABAC matching', () => {
  it('user and group must both match when both are given; "*" matches everyone authenticated', () => {
    const a = authz(v1({ user: 'alice', group: 'dev', namespace: '*', resource: '*', apiGroup: '*' }), v1({ group: '*', namespace: 'shared', resource: 'configmaps', apiGroup: '' }));
    assert.equal(a.authorize(res(alice, 'delete', 'pods')).decision, 'Allow');
    assert.deepEqual(a.authorize(res(bob, 'delete', 'pods')), { decision: 'NoOpinion', reason: 'No policy matched.' });
    assert.equal(a.authorize(res(bob, 'create', 'configmaps', 'shared')).decision, 'Allow');
    // "*" became system:authenticated: the anonymous user is not matched.
    assert.equal(a.authorize(res(anonymous, 'get', 'configmaps', 'shared')).decision, 'NoOpinion');
    assert.equal(authz(v1({ group: 'system:unauthenticated', namespace: '*', resource: '*', apiGroup: '*', readonly: true })).authorize(res(anonymous, 'list', 'pods')).decision, 'Allow');
  });
  it('readonly policies match get, list and watch only', () => {
    const a = authz(v1({ user: 'alice', namespace: '*', resource: 'pods', apiGroup: '', readonly: true }));
    for (const verb of ['get', 'list', 'watch']) assert.equal(a.authorize(res(alice, verb, 'pods')).decision, 'Allow');
    for (const verb of ['create', 'update', 'patch', 'delete', 'deletecollection']) assert.equal(a.authorize(res(alice, verb, 'pods')).decision, 'NoOpinion');
  });
  it('namespace, resource and apiGroup are exact or "*"; a resource covers its subresources; an empty scope matches nothing', () => {
    const a = authz(v1({ user: 'alice', namespace: 'team', resource: 'deployments', apiGroup: 'apps' }));
    assert.equal(a.authorize(res(alice, 'update', 'deployments', 'team', 'apps', 'scale')).decision, 'Allow');
    assert.equal(a.authorize(res(alice, 'update', 'deployments', 'other', 'apps')).decision, 'NoOpinion');
    assert.equal(a.authorize(res(alice, 'update', 'deployments', 'team', 'extensions')).decision, 'NoOpinion');
    assert.equal(a.authorize(res(alice, 'list', 'deployments', '', 'apps')).decision, 'NoOpinion');
    // "*" covers cluster-scoped requests too.
    assert.equal(authz(v1({ user: 'alice', namespace: '*', resource: 'nodes', apiGroup: '' })).authorize(res(alice, 'list', 'nodes', '')).decision, 'Allow');
    // A v1beta1 policy without apiGroup matches only the core group.
    assert.equal(authz(v1({ user: 'alice', namespace: '*', resource: '*' })).authorize(res(alice, 'get', 'deployments', 'x', 'apps')).decision, 'NoOpinion');
    assert.equal(authz(v1({ user: 'alice' })).authorize(res(alice, 'get', 'pods')).decision, 'NoOpinion');
  });
  it('non-resource paths: exact, "*", and a trailing "*" prefix; never a resource request', () => {
    const a = authz(v1({ user: 'alice', nonResourcePath: '/healthz' }), v1({ user: 'bob', nonResourcePath: '/apis/*' }));
    assert.equal(a.authorize(path(alice, 'get', '/healthz')).decision, 'Allow');
    assert.equal(a.authorize(path(alice, 'get', '/healthz/etcd')).decision, 'NoOpinion');
    assert.equal(a.authorize(path(bob, 'get', '/apis/apps')).decision, 'Allow');
    assert.equal(a.authorize(path(bob, 'get', '/api')).decision, 'NoOpinion');
    assert.equal(authz(v1({ user: 'alice', nonResourcePath: '*' })).authorize(res(alice, 'get', 'pods')).decision, 'NoOpinion');
  });
  it('lists the rules of the policies that name the user in the namespace', () => {
    const a = authz(
      v1({ user: 'alice', namespace: 'team', resource: 'pods', apiGroup: '', readonly: true }),
      v1({ group: 'dev', namespace: '*', resource: '*', apiGroup: '*', nonResourcePath: '/logs*' }),
      v1({ user: 'bob', namespace: '*', resource: '*', apiGroup: '*' }),
    );
    assert.deepEqual(a.rulesFor(alice, 'team'), {
      resourceRules: [
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      ],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['/logs*'] }],
      incomplete: false,
    });
    assert.equal(a.rulesFor(alice, 'other').resourceRules.length, 1);
  });
});
