/**
 * pods/exec, pods/attach and pods/portforward are authorized with the request's verb, as kube
 * 1.33 authorizes them: POST (SPDY) needs create, GET (WebSocket) needs get. A user allowed in
 * reaches the subresource's own checks (here: the pod has no node yet).
 */
import { after, test } from 'node:test';
import { createServer, type Socket } from 'node:net';
import assert from 'node:assert/strict';
import { useServer } from '../support/server.js';
import { bearer, tokenAuthFileFlag } from '../support/static-tokens.js';

const fx = useServer({}, async () => [
  '--authorization-mode=RBAC',
  '--kubelet-timeout=1s',
  await tokenAuthFileFlag([
    { token: 'getter-token', name: 'getter', uid: 'getter' },
    { token: 'creator-token', name: 'creator', uid: 'creator' },
    { token: 'admin-token', name: 'admin', uid: 'admin', groups: ['system:masters'] },
  ]),
]);

const admin = bearer('admin-token');

async function grant(user: string, verb: string): Promise<void> {
  const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: user }, rules: [{ apiGroups: [''], resources: ['pods/exec', 'pods/attach', 'pods/portforward'], verbs: [verb] }] };
  const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: user }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: user }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user }] };
  assert.equal((await fx.request('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', { body: role, headers: admin })).status, 201);
  assert.equal((await fx.request('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', { body: binding, headers: admin })).status, 201);
}

test('GET needs get and POST needs create on the streaming subresources', async () => {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [{ name: 'main', image: 'busybox' }] } };
  assert.equal((await fx.request('POST', '/api/v1/namespaces/default/pods', { body: pod, headers: admin })).status, 201);
  await grant('getter', 'get');
  await grant('creator', 'create');
  const call = async (method: string, sub: string, token: string): Promise<{ status: number; message: string }> => {
    const r = await fx.request(method, `/api/v1/namespaces/default/pods/web/${sub}?command=ls&stdout=true`, { headers: bearer(token) });
    return { status: r.status, message: r.json().message };
  };
  for (const sub of ['exec', 'attach', 'portforward']) {
    assert.deepEqual(await call('GET', sub, 'getter-token'), { status: 400, message: 'pod web does not have a host assigned' });
    assert.deepEqual(await call('POST', sub, 'creator-token'), { status: 400, message: 'pod web does not have a host assigned' });
    assert.deepEqual(await call('POST', sub, 'getter-token'), { status: 403, message: `pods "web" is forbidden: User "getter" cannot create resource "pods/${sub}" in API group "" in the namespace "default"` });
    assert.deepEqual(await call('GET', sub, 'creator-token'), { status: 403, message: `pods "web" is forbidden: User "creator" cannot get resource "pods/${sub}" in API group "" in the namespace "default"` });
  }
});

test('a kubelet that never answers: 503 after --kubelet-timeout', async () => {
  const held: Socket[] = [];
  const silent = createServer((socket) => held.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  after(() => {
    for (const s of held) s.destroy();
    silent.close();
  });
  const port = (silent.address() as { port: number }).port;
  assert.equal((await fx.request('POST', '/api/v1/nodes', { body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'silent' } }, headers: admin })).status, 201);
  const status = { status: { addresses: [{ type: 'InternalIP', address: '127.0.0.1' }], daemonEndpoints: { kubeletEndpoint: { Port: port } } } };
  assert.equal((await fx.request('PATCH', '/api/v1/nodes/silent/status', { body: status, headers: { ...admin, 'Content-Type': 'application/merge-patch+json' } })).status, 200);
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stuck' }, spec: { nodeName: 'silent', containers: [{ name: 'main', image: 'busybox' }] } };
  assert.equal((await fx.request('POST', '/api/v1/namespaces/default/pods', { body: pod, headers: admin })).status, 201);
  const started = Date.now();
  const r = await fx.request('POST', '/api/v1/namespaces/default/pods/stuck/exec?command=ls&stdout=true', { headers: { ...admin, Connection: 'Upgrade', Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': 'v4.channel.k8s.io' } });
  assert.equal(r.status, 503, r.text);
  assert.match(r.text, /error dialing backend: dial tcp 127\.0\.0\.1:\d+: i\/o timeout/);
  assert.ok(Date.now() - started < 4000);
});
