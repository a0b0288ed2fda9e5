/**
 * RBAC over HTTPS with --authorization-mode=RBAC: the bootstrap policy lets anonymous users read
 * public info and nothing else, escalation is refused with kube's 403, admin follows a new
 * aggregate-to-admin ClusterRole, and a restart reconciles bootstrap roles unless they are marked
 * autoupdate=false. Identities come from a --token-auth-file: root in system:masters, jane in no
 * group of her own.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer, type TestResponse } from '../support/server.js';
import { bearer, tokenAuthFileFlag } from '../support/static-tokens.js';

const rbac = '/apis/rbac.authorization.k8s.io/v1';
const users = [
  { token: 'root-token-0123456789', name: 'root', uid: 'root-uid', groups: ['system:masters'] },
  { token: 'jane-token-0123456789', name: 'jane', uid: 'jane-uid' },
] as const;
const root = bearer(users[0].token);
const jane = bearer(users[1].token);

async function until(pred: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('RBAC over HTTPS (--authorization-mode=RBAC)', () => {
  const fx = useServer({}, async () => [await tokenAuthFileFlag(users), '--authorization-mode=RBAC']);

  it('lets anonymous users read /healthz, /version and /readyz, and nothing else', async () => {
    for (const path of ['/healthz', '/version', '/readyz', '/livez']) assert.equal((await fx.request('GET', path)).status, 200, path);
    const pods = await fx.request('GET', '/api/v1/pods');
    assert.equal(pods.status, 403);
    assert.equal(pods.json().message, 'pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" at the cluster scope');
    const apis = await fx.request('GET', '/apis');
    assert.equal(apis.status, 403);
    assert.equal(apis.json().message, 'forbidden: User "system:anonymous" cannot get path "/apis"');
    assert.equal((await fx.request('GET', '/apis', { headers: jane })).status, 200, 'discovery is for authenticated users');
  });

  it('reports the bootstrap roles in readyz', async () => {
    const res = await fx.request('GET', '/readyz?verbose', { headers: root });
    assert.match(res.text, /\[\+\]poststarthook\/rbac\/bootstrap-roles ok/);
  });

  it("refuses an edit user's RoleBinding to cluster-admin with kube's 403", async () => {
    assert.equal((await fx.request('POST', '/api/v1/namespaces', { headers: root, body: { metadata: { name: 'team' } } })).status, 201);
    const grant = await fx.request('POST', `${rbac}/namespaces/team/rolebindings`, {
      headers: root,
      body: { metadata: { name: 'jane-edit' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'User', name: 'jane' }] },
    });
    assert.equal(grant.status, 201, grant.text);
    await until(async () => (await fx.request('GET', '/api/v1/namespaces/team/pods', { headers: jane })).status === 200);
    const elsewhere = await fx.request('GET', '/api/v1/namespaces/default/pods', { headers: jane });
    assert.equal(elsewhere.status, 403);
    assert.equal(elsewhere.json().message, 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"');

    // edit does not include RBAC: jane gets a role to write bindings, but still cannot escalate.
    for (const [path, body] of [
      [`${rbac}/clusterroles`, { metadata: { name: 'binding-writer' }, rules: [{ verbs: ['create'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings'] }] }],
      [
        `${rbac}/clusterrolebindings`,
        { metadata: { name: 'jane-binding-writer' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'binding-writer' }, subjects: [{ kind: 'User', name: 'jane' }] },
      ],
    ] as const) {
      assert.equal((await fx.request('POST', path, { headers: root, body })).status, 201);
    }
    const steal = { metadata: { name: 'steal' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'User', name: 'jane' }] };
    // Until RBAC has seen jane's new binding, the request itself is refused ("cannot create resource").
    let res: TestResponse | undefined;
    await until(async () => {
      res = await fx.request('POST', `${rbac}/namespaces/team/rolebindings`, { headers: jane, body: steal });
      return !res.json().message.includes('cannot create resource');
    });
    assert.ok(res);
    assert.equal(res.status, 403);
    assert.deepEqual(res.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'rolebindings.rbac.authorization.k8s.io "steal" is forbidden: user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}',
      reason: 'Forbidden',
      details: { name: 'steal', group: 'rbac.authorization.k8s.io', kind: 'rolebindings' },
      code: 403,
    });
    const view = { ...steal, metadata: { name: 'friend-view' }, roleRef: { ...steal.roleRef, name: 'view' }, subjects: [{ kind: 'User', name: 'friend' }] };
    assert.equal((await fx.request('POST', `${rbac}/namespaces/team/rolebindings`, { headers: jane, body: view })).status, 201);
  });

  it('aggregates a new aggregate-to-admin ClusterRole into admin', async () => {
    const res = await fx.request('POST', `${rbac}/clusterroles`, {
      headers: root,
      body: {
        metadata: { name: 'widgets', labels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } },
        rules: [{ verbs: ['get', 'list'], apiGroups: ['example.com'], resources: ['widgets'] }],
      },
    });
    assert.equal(res.status, 201);
    await until(async () => {
      const admin = (await fx.request('GET', `${rbac}/clusterroles/admin`, { headers: root })).json();
      return admin.rules.some((r: { apiGroups?: string[] }) => r.apiGroups?.includes('example.com'));
    });
    const edit = (await fx.request('GET', `${rbac}/clusterroles/edit`, { headers: root })).json();
    assert.equal(edit.rules.some((r: { apiGroups?: string[] }) => r.apiGroups?.includes('example.com')), false);
  });

  it('keeps a bootstrap role changed with autoupdate=false across a restart, and reconciles one changed without', async () => {
    const patch = (name: string, body: unknown) =>
      fx.request('PATCH', `${rbac}/clusterroles/${name}`, { headers: { ...root, 'content-type': 'application/merge-patch+json' }, body });
    assert.equal((await patch('system:kube-dns', { metadata: { annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: [] })).status, 200);
    assert.equal((await patch('system:kube-aggregator', { rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }] })).status, 200);
    await fx.restart();
    const dns = (await fx.request('GET', `${rbac}/clusterroles/system:kube-dns`, { headers: root })).json();
    assert.deepEqual(dns.rules ?? [], []);
    const aggregator = (await fx.request('GET', `${rbac}/clusterroles/system:kube-aggregator`, { headers: root })).json();
    assert.deepEqual(
      aggregator.rules.map((r: { verbs: string[]; resources: string[] }) => `${r.verbs.join(',')} ${r.resources.join(',')}`),
      ['get configmaps', 'get endpoints', 'list endpoints', 'watch endpoints', 'get services', 'list services', 'watch services'],
    );
    assert.equal(aggregator.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'], 'true');
  });
});
