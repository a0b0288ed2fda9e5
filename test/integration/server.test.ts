/**
 * The server around the resources: discovery, /version, health, OpenAPI v3, and a watch that
 * resumes across an API server restart without losing or repeating a change.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../support/server.js';
import { openWatch } from '../support/watch.js';

// The restart test resumes a watch from the last resourceVersion its client saw, which the
// restarted server's watch cache serves only when nothing was written to etcd in between. The
// server's own writes are kept out of that window: no address lease (written at shutdown and start
// by the lease endpoint reconciler, as kube's) and no identity Lease renewal during the test.
const fx = useServer({ controlPlaneTuning: { identityLeaseRenewIntervalMs: 3600_000 } }, ['--endpoint-reconciler-type=none']);

describe('discovery', () => {
  it('/api, /api/v1, /apis, /apis/<group>, /apis/<group>/<version>', async () => {
    const api = (await fx.request('GET', '/api')).json();
    assert.equal(api.kind, 'APIVersions');
    assert.deepEqual(api.versions, ['v1']);
    const v1 = (await fx.request('GET', '/api/v1')).json();
    assert.equal(v1.kind, 'APIResourceList');
    assert.equal(v1.groupVersion, 'v1');
    const cms = v1.resources.find((r: any) => r.name === 'configmaps');
    assert.deepEqual(cms, {
      name: 'configmaps',
      singularName: 'configmap',
      namespaced: true,
      kind: 'ConfigMap',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['cm'],
      storageVersionHash: 'qFsyl6wFWjQ=',
    });
    const podStatus = v1.resources.find((r: any) => r.name === 'pods/status');
    assert.deepEqual(podStatus, { name: 'pods/status', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get', 'patch', 'update'] });
    assert.deepEqual(v1.resources.find((r: any) => r.name === 'pods/exec')?.verbs, ['create', 'get'], 'pods/exec is a connect subresource');
    const finalize = v1.resources.find((r: any) => r.name === 'namespaces/finalize');
    assert.deepEqual(finalize.verbs, ['update']);
    const apis = (await fx.request('GET', '/apis')).json();
    assert.equal(apis.kind, 'APIGroupList');
    const apps = apis.groups.find((g: any) => g.name === 'apps');
    assert.deepEqual(apps.preferredVersion, { groupVersion: 'apps/v1', version: 'v1' });
    const appsGroup = (await fx.request('GET', '/apis/apps')).json();
    assert.equal(appsGroup.kind, 'APIGroup');
    const appsV1 = (await fx.request('GET', '/apis/apps/v1')).json();
    const scale = appsV1.resources.find((r: any) => r.name === 'deployments/scale');
    assert.deepEqual(scale, { name: 'deployments/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
    assert.equal((await fx.request('GET', '/apis/authentication.k8s.io')).status, 200, 'the review groups are served');
    assert.equal((await fx.request('GET', '/apis/example.com')).status, 404, 'groups without served resources are absent');
    assert.equal((await fx.request('GET', '/apis/apps/v1beta1')).status, 404);
  });

  it('aggregated discovery for /api and /apis', async () => {
    const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;q=0.9';
    const res = await fx.request('GET', '/apis', { headers: { accept } });
    assert.equal(res.headers['content-type'], 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    const doc = res.json();
    assert.equal(doc.kind, 'APIGroupDiscoveryList');
    assert.equal(doc.apiVersion, 'apidiscovery.k8s.io/v2');
    const apps = doc.items.find((i: any) => i.metadata.name === 'apps');
    const deploy = apps.versions[0].resources.find((r: any) => r.resource === 'deployments');
    assert.equal(deploy.scope, 'Namespaced');
    assert.deepEqual(deploy.responseKind, { group: '', kind: 'Deployment', version: '' });
    assert.deepEqual(deploy.subresources.map((s: any) => s.subresource), ['scale', 'status']);
    assert.deepEqual(deploy.subresources[0].responseKind, { group: 'autoscaling', kind: 'Scale', version: 'v1' });
    const core = (await fx.request('GET', '/api', { headers: { accept } })).json();
    assert.equal(core.items.length, 1);
    assert.equal(core.items[0].versions[0].version, 'v1');
    const etag = res.headers.etag as string;
    const again = await fx.request('GET', '/apis', { headers: { accept, 'if-none-match': etag } });
    assert.equal(again.status, 304);
  });

  it('/version', async () => {
    const v = (await fx.request('GET', '/version')).json();
    assert.equal(v.major, '1');
    assert.equal(v.minor, '33');
    assert.match(v.gitVersion, /^v1\.33\.\d+/);
  });

  it('/openapi/v3 lists served group versions and serves their documents by hash', async () => {
    const index = (await fx.request('GET', '/openapi/v3')).json();
    assert.ok(index.paths['api/v1']);
    assert.ok(index.paths['apis/apps/v1']);
    assert.ok(index.paths['apis/batch/v1']);
    assert.ok(index.paths['apis/authentication.k8s.io/v1'], 'the review groups are served');
    assert.equal(index.paths['apis/apps/v1beta1'], undefined, 'only served group versions');
    const url = index.paths['api/v1'].serverRelativeURL as string;
    const doc = await fx.request('GET', url);
    assert.equal(doc.status, 200);
    assert.equal(doc.headers['cache-control'], 'public, immutable');
    const body = doc.json();
    assert.ok(body.paths['/api/v1/namespaces/{namespace}/configmaps/{name}']);
    assert.ok(body.paths['/api/v1/namespaces/{namespace}/pods/{name}/exec'], 'pods/exec');
    assert.ok(body.paths['/api/v1/namespaces/{namespace}/bindings'], 'the legacy bindings resource');
    assert.ok(body.paths['/api/v1/namespaces/{namespace}/pods/{name}/proxy/{path}'], 'connect subresources with their path');
    assert.ok(body.components.schemas['io.k8s.api.core.v1.ConfigMap']);
    assert.ok(body.components.schemas['io.k8s.api.core.v1.Binding']);
    const stale = await fx.request('GET', '/openapi/v3/api/v1?hash=ABC');
    assert.equal(stale.status, 301);
  });
});

describe('health', () => {
  it('/healthz, /livez, /readyz with ?verbose and single checks', async () => {
    for (const p of ['/healthz', '/livez', '/readyz']) {
      const res = await fx.request('GET', p);
      assert.equal(res.status, 200);
      assert.equal(res.text, 'ok');
    }
    const verbose = await fx.request('GET', '/readyz?verbose');
    assert.match(verbose.text, /^\[\+\]ping ok$/m);
    assert.match(verbose.text, /^\[\+\]etcd ok$/m);
    assert.match(verbose.text, /^\[\+\]shutdown ok$/m);
    assert.match(verbose.text, /readyz check passed\n$/);
    const single = await fx.request('GET', '/healthz/etcd');
    assert.equal(single.text, 'ok');
    const missing = await fx.request('GET', '/healthz/nothing');
    assert.equal(missing.status, 404);
    const excluded = await fx.request('GET', '/livez?verbose&exclude=etcd');
    assert.match(excluded.text, /\[\+\]etcd excluded: ok/);
  });
});

describe('restart', () => {
  it('a client watching across an API server restart resumes from its last resourceVersion and sees every change once', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    const start = (await fx.request('GET', path)).json().metadata.resourceVersion;
    const w1 = await openWatch(fx, `${path}?watch=true&resourceVersion=${start}`);
    assert.equal((await fx.request('POST', path, { body: { metadata: { name: 'r0' } } })).status, 201);
    const first = await w1.next();
    assert.equal(first.object.metadata.name, 'r0');
    let lastRV = first.object.metadata.resourceVersion as string;

    // The server goes away; the watch ends; changes happen while the client is disconnected.
    const restarting = fx.restart();
    const ended = await w1.next(10_000);
    assert.equal(ended, undefined, 'the watch ends when the server stops');
    await restarting;
    const expected = new Set<string>();
    for (let i = 1; i <= 5; i++) {
      const res = await fx.request('POST', path, { body: { metadata: { name: `r${i}` } } });
      assert.equal(res.status, 201);
      expected.add(`r${i}`);
    }
    await fx.request('PATCH', `${path}/r1`, { rawBody: '{"data":{"x":"1"}}', headers: { 'content-type': 'application/merge-patch+json' } });
    await fx.request('DELETE', `${path}/r0`);

    const w2 = await openWatch(fx, `${path}?watch=true&resourceVersion=${lastRV}`);
    const seen: string[] = [];
    for (let i = 0; i < 7; i++) {
      const ev = await w2.next();
      assert.ok(ev, `event ${i} arrives`);
      assert.ok(Number(ev.object.metadata.resourceVersion) > Number(lastRV), 'strictly newer than the last one seen');
      lastRV = ev.object.metadata.resourceVersion;
      seen.push(`${ev.type}:${ev.object.metadata.name}`);
    }
    assert.deepEqual(seen, ['ADDED:r1', 'ADDED:r2', 'ADDED:r3', 'ADDED:r4', 'ADDED:r5', 'MODIFIED:r1', 'DELETED:r0']);
    assert.equal(await w2.next(500), undefined, 'nothing is delivered twice');
    w2.close();
  });
});
