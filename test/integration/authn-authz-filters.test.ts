/**
 * The authentication and authorization filters over HTTP: with --anonymous-auth=false a request
 * without credentials is 401 with kube's Status; with --authorization-mode=AlwaysDeny every request
 * is 403 with kube's forbidden message for resource and non-resource paths.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../support/server.js';

describe('authentication filter: --anonymous-auth=false', () => {
  const fx = useServer({}, ['--anonymous-auth=false']);
  it('answers a request without credentials 401 Unauthorized with a Status', async () => {
    const res = await fx.request('GET', '/api/v1/namespaces/default/configmaps');
    assert.equal(res.status, 401);
    assert.deepEqual(res.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });
});

describe('authorization filter: --authorization-mode=AlwaysDeny', () => {
  const fx = useServer({}, ['--authorization-mode=AlwaysDeny']);
  it('refuses resource requests with kube message, namespace and cluster scope', async () => {
    const list = await fx.request('GET', '/api/v1/namespaces/default/pods');
    assert.equal(list.status, 403);
    const s = list.json();
    assert.equal(s.reason, 'Forbidden');
    assert.equal(s.message, 'pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "default": Everything is forbidden.');
    assert.deepEqual(s.details, { kind: 'pods' });
    const one = await fx.request('GET', '/apis/apps/v1/namespaces/ns1/deployments/web/scale');
    assert.equal(one.json().message, 'deployments.apps "web" is forbidden: User "system:anonymous" cannot get resource "deployments/scale" in API group "apps" in the namespace "ns1": Everything is forbidden.');
    assert.deepEqual(one.json().details, { name: 'web', group: 'apps', kind: 'deployments' });
    const nodes = await fx.request('GET', '/api/v1/nodes');
    assert.equal(nodes.json().message, 'nodes is forbidden: User "system:anonymous" cannot list resource "nodes" in API group "" at the cluster scope: Everything is forbidden.');
  });
  it('refuses non-resource paths with the path in the message', async () => {
    const res = await fx.request('GET', '/version');
    assert.equal(res.status, 403);
    assert.equal(res.json().message, 'forbidden: User "system:anonymous" cannot get path "/version": Everything is forbidden.');
  });
});
