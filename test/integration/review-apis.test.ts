/**
 * The review APIs over HTTPS against a real server: TokenReview of valid (a static token, a
 * pod-bound service account token with its extra), unknown and revoked tokens (a service account
 * token whose account was deleted), SelfSubjectReview as anonymous and as token users, the access
 * reviews with --authorization-mode=AlwaysAllow (and their validation), and with AlwaysDeny, where
 * creating a review is itself forbidden. Users come from a --token-auth-file and from the
 * serviceaccounts/token subresource.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer, type ServerFixture } from '../support/server.js';
import { serviceAccountFlags, testIssuer, writeSigningKey } from '../support/service-accounts.js';
import { bearer, tokenAuthFileFlag, type StaticTokenUser } from '../support/static-tokens.js';

const json = { 'content-type': 'application/json', 'user-agent': 'review-test/1.0' };
const alice: StaticTokenUser = { token: 'alice-token', name: 'alice', uid: 'alice-uid', groups: ['devs'] };

/** POSTs body to path as anonymous (AlwaysAllow lets it), expects 201 and returns the created object. */
async function create(fx: ServerFixture, path: string, body: unknown): Promise<any> {
  const res = await fx.request('POST', path, { body });
  assert.equal(res.status, 201, res.text);
  return res.json();
}

/** A bound token of the service account (POST serviceaccounts/name/token), optionally bound to a pod. */
async function serviceAccountToken(fx: ServerFixture, name: string, pod?: { name: string; uid: string }): Promise<string> {
  const spec = pod ? { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: pod.name, uid: pod.uid } } : {};
  const tr = await create(fx, `/api/v1/namespaces/default/serviceaccounts/${name}/token`, { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec });
  return tr.status.token;
}

describe('review APIs: --authorization-mode=AlwaysAllow', () => {
  const fx = useServer({}, async () => [await tokenAuthFileFlag([alice]), ...serviceAccountFlags(await writeSigningKey('ec'))]);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => fx.request('POST', path, { body, headers: { ...json, ...headers } });
  const tokenReview = (token: string) => post('/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });

  it('TokenReview of a valid token: 201 with the user (system:authenticated added), the review as sent and managedFields', async () => {
    const res = await post('/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'alice-token' } });
    assert.equal(res.status, 201);
    const body = res.json();
    assert.equal(body.kind, 'TokenReview');
    assert.equal(body.apiVersion, 'authentication.k8s.io/v1');
    assert.equal(body.metadata.creationTimestamp, null);
    assert.equal(body.metadata.managedFields[0].manager, 'review-test');
    assert.deepEqual(body.metadata.managedFields[0].fieldsV1, { 'f:spec': { 'f:token': {} } });
    assert.deepEqual(body.spec, { token: 'alice-token' });
    // A static token is audience-agnostic: it is valid for the server's --api-audiences (kube's wrapper).
    assert.deepEqual(body.status, {
      authenticated: true,
      user: { username: 'alice', uid: 'alice-uid', groups: ['devs', 'system:authenticated'] },
      audiences: [testIssuer],
    });
  });

  it('TokenReview and SelfSubjectReview of a pod-bound service account token carry its extra', async () => {
    const sa = await create(fx, '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'builder' } });
    const pod = await create(fx, '/api/v1/namespaces/default/pods', { metadata: { name: 'builder-pod' }, spec: { serviceAccountName: 'builder', containers: [{ name: 'c', image: 'busybox' }] } });
    const token = await serviceAccountToken(fx, 'builder', { name: 'builder-pod', uid: pod.metadata.uid });
    const jti = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')).jti;
    const user = {
      username: 'system:serviceaccount:default:builder',
      uid: sa.metadata.uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
      extra: {
        'authentication.kubernetes.io/credential-id': [`JTI=${jti}`],
        'authentication.kubernetes.io/pod-name': ['builder-pod'],
        'authentication.kubernetes.io/pod-uid': [pod.metadata.uid],
      },
    };
    const review = await tokenReview(token);
    assert.equal(review.status, 201);
    assert.deepEqual(review.json().status, { authenticated: true, user, audiences: [testIssuer] });
    const self = await post('/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, bearer(token));
    assert.equal(self.status, 201);
    assert.deepEqual(self.json().status.userInfo, user);
  });

  it('TokenReview of an unknown or revoked token: authenticated false with kube error, no reason beyond it', async () => {
    const res = await tokenReview('nobody');
    assert.equal(res.status, 201);
    assert.deepEqual(res.json().status, { user: {}, error: 'invalid bearer token' });
    // Two tokens of one service account: the first shows they were valid; the second, never used
    // (so not in the 10 s success cache), is reviewed after the account is deleted.
    await create(fx, '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'departed' } });
    const used = await serviceAccountToken(fx, 'departed');
    const unused = await serviceAccountToken(fx, 'departed');
    assert.equal((await tokenReview(used)).json().status.authenticated, true);
    const deleted = await fx.request('DELETE', '/api/v1/namespaces/default/serviceaccounts/departed');
    assert.equal(deleted.status, 200, deleted.text);
    // The account lookup reads the watch cache first, as kube's does: the deletion reaches it shortly after.
    let revoked = await tokenReview(unused);
    for (const deadline = Date.now() + 15_000; revoked.json().status?.authenticated === true && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 100));
      revoked = await tokenReview(unused);
    }
    assert.equal(revoked.status, 201);
    assert.deepEqual(revoked.json().status, { user: {}, error: 'serviceaccounts "departed" not found' });
  });

  it('TokenReview without a token is 400 with kube message; a dry run reviews as well', async () => {
    const res = await post('/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} });
    assert.equal(res.status, 400);
    assert.equal(res.json().message, 'token is required for TokenReview in authentication');
    const dry = await post('/apis/authentication.k8s.io/v1/tokenreviews?dryRun=All', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'alice-token' } });
    assert.equal(dry.status, 201);
    assert.equal(dry.json().status.authenticated, true);
  });

  it('SelfSubjectReview: the anonymous user, and a token user as authenticated', async () => {
    const anon = await post('/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    assert.equal(anon.status, 201);
    const body = anon.json();
    assert.match(body.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(body.status, { userInfo: { username: 'system:anonymous', groups: ['system:unauthenticated'] } });
    const self = await post('/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, bearer(alice.token));
    assert.deepEqual(self.json().status.userInfo, { username: 'alice', uid: 'alice-uid', groups: ['devs', 'system:authenticated'] });
  });

  it('SubjectAccessReview: allowed, with kube validation messages', async () => {
    const sar = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'bob', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'ns1' } } };
    const ok = await post('/apis/authorization.k8s.io/v1/subjectaccessreviews', sar);
    assert.equal(ok.status, 201);
    assert.deepEqual(ok.json().status, { allowed: true });
    assert.deepEqual(ok.json().spec, sar.spec);
    const bad = await post('/apis/authorization.k8s.io/v1/subjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: {} });
    assert.equal(bad.status, 422);
    const s = bad.json();
    assert.equal(s.reason, 'Invalid');
    assert.match(s.message, /^\.authorization\.k8s\.io "" is invalid: \[spec\.resourceAttributes: Invalid value: .*: exactly one of nonResourceAttributes or resourceAttributes must be specified, spec\.user: Invalid value: "": at least one of user or group must be specified\]$/);
    assert.deepEqual(s.details.causes.map((c: { field: string }) => c.field), ['spec.resourceAttributes', 'spec.user']);
    assert.equal(s.details.group, 'authorization.k8s.io');
    assert.equal(s.details.kind, undefined);
  });

  it('LocalSubjectAccessReview: the namespace comes from the URL and resourceAttributes must repeat it', async () => {
    const lsar = (ns: string) => ({ apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', spec: { groups: ['devs'], resourceAttributes: { verb: 'list', resource: 'secrets', namespace: ns } } });
    const ok = await post('/apis/authorization.k8s.io/v1/namespaces/no-such-ns/localsubjectaccessreviews', lsar('no-such-ns'));
    assert.equal(ok.status, 201);
    assert.equal(ok.json().metadata.namespace, 'no-such-ns');
    assert.deepEqual(ok.json().status, { allowed: true });
    const other = await post('/apis/authorization.k8s.io/v1/namespaces/ns1/localsubjectaccessreviews', lsar('ns2'));
    assert.equal(other.status, 422);
    assert.equal(other.json().message, '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "ns2": must match metadata.namespace');
    const mismatch = await post('/apis/authorization.k8s.io/v1/namespaces/ns1/localsubjectaccessreviews', { ...lsar('ns1'), metadata: { namespace: 'ns2' } });
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.json().message, 'the namespace of the provided object does not match the namespace sent on the request');
  });

  it('SelfSubjectAccessReview and SelfSubjectRulesReview answer for the requester', async () => {
    const ssar = await post('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } });
    assert.equal(ssar.status, 201);
    assert.deepEqual(ssar.json().status, { allowed: true });
    const ssrr = await post('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'default' } });
    assert.equal(ssrr.status, 201);
    assert.deepEqual(ssrr.json(), {
      kind: 'SelfSubjectRulesReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: {},
      status: {
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        incomplete: false,
      },
    });
    const noNs = await post('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: {} });
    assert.equal(noNs.status, 400);
    assert.equal(noNs.json().message, 'no namespace on request');
  });

  it('discovery lists the reviews with the create verb only', async () => {
    const res = await fx.request('GET', '/apis/authorization.k8s.io/v1');
    const names = res.json().resources.map((r: { name: string; verbs: string[] }) => `${r.name}:${r.verbs.join(',')}`);
    assert.deepEqual(names.sort(), ['localsubjectaccessreviews:create', 'selfsubjectaccessreviews:create', 'selfsubjectrulesreviews:create', 'subjectaccessreviews:create']);
    const get = await fx.request('GET', '/apis/authorization.k8s.io/v1/subjectaccessreviews');
    assert.equal(get.status, 405);
  });
});

describe('review APIs: --authorization-mode=AlwaysDeny', () => {
  const fx = useServer({}, async () => [await tokenAuthFileFlag([alice]), '--authorization-mode=AlwaysDeny']);
  it('refuses to create a review like any other request', async () => {
    const res = await fx.request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'create', resource: 'pods' } } },
      headers: bearer(alice.token),
    });
    assert.equal(res.status, 403);
    assert.equal(
      res.json().message,
      'selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "alice" cannot create resource "selfsubjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope: Everything is forbidden.',
    );
  });
});
