/**
 * Impersonation over HTTPS: with --authorization-mode=AlwaysAllow the request runs as the user the
 * Impersonate-* headers name (SelfSubjectReview shows it); with AlwaysDeny the impersonation itself
 * is refused with kube's 403; groups without a user are refused before any authorization. The
 * impersonating user comes from a --token-auth-file.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../support/server.js';
import { bearer, tokenAuthFileFlag, type StaticTokenUser } from '../support/static-tokens.js';

const whoami = { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' };
const path = '/apis/authentication.k8s.io/v1/selfsubjectreviews';
const alice: StaticTokenUser = { token: 'alice-token', name: 'alice', uid: 'alice-uid', groups: ['devs'] };

describe('impersonation: --authorization-mode=AlwaysAllow', () => {
  const fx = useServer({}, async () => [await tokenAuthFileFlag([alice])]);

  it('runs the request as the impersonated user, groups, uid and extra', async () => {
    const res = await fx.request('POST', path, {
      body: whoami,
      headers: {
        ...bearer(alice.token),
        'Impersonate-User': 'bob',
        'Impersonate-Group': 'qa',
        'Impersonate-Uid': 'bob-uid',
        'Impersonate-Extra-Acme.com%2Fproject': 'apollo',
      },
    });
    assert.equal(res.status, 201);
    assert.deepEqual(res.json().status.userInfo, { username: 'bob', uid: 'bob-uid', groups: ['qa', 'system:authenticated'], extra: { 'acme.com/project': ['apollo'] } });
  });

  it('gives an impersonated service account its groups', async () => {
    const res = await fx.request('POST', path, { body: whoami, headers: { 'Impersonate-User': 'system:serviceaccount:kube-system:builder' } });
    assert.deepEqual(res.json().status.userInfo, {
      username: 'system:serviceaccount:kube-system:builder',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
    });
  });

  it('refuses groups without a user (400)', async () => {
    const res = await fx.request('POST', path, { body: whoami, headers: { 'Impersonate-Group': 'system:masters' } });
    assert.equal(res.status, 400);
    assert.equal(res.json().reason, 'BadRequest');
    assert.equal(res.json().message, 'requested [{Group  system:masters    }] without impersonating a user');
  });
});

describe('impersonation: --authorization-mode=AlwaysDeny', () => {
  const fx = useServer({}, async () => [await tokenAuthFileFlag([alice]), '--authorization-mode=AlwaysDeny']);

  it('refuses the impersonation with kube 403 before the request itself is authorized', async () => {
    const res = await fx.request('GET', '/api/v1/namespaces/default/pods', { headers: { ...bearer(alice.token), 'Impersonate-User': 'bob' } });
    assert.equal(res.status, 403);
    assert.deepEqual(res.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope: Everything is forbidden.',
      reason: 'Forbidden',
      details: { name: 'bob', kind: 'users' },
      code: 403,
    });
  });
});
