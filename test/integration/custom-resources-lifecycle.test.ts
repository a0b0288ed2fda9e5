/**
 * Custom resources across versions and lifetimes, against real etcd: two served versions with
 * conversion strategy None (written in one, read in the other, stored in the storage version, with
 * status.storedVersions following a new storage version), the deprecated version's warning, a
 * restart and a second server on the same etcd serving the CRD, namespace deletion and garbage
 * collection of custom resources, and a terminating CRD refusing creates.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEstablishedCrd, eventually, widgetCrd, widgetVersion } from '../support/crds.js';
import { useServer } from '../support/server.js';
import { startServerOn } from '../support/server-on.js';
import { openWatch } from '../support/watch.js';
import { etcdctlGet } from '../support/etcdctl.js';

const fx = useServer();
const crdPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const v1 = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const v1beta1 = '/apis/stable.example.com/v1beta1/namespaces/default/crontabs';

function cronTab(apiVersion: string, name: string, spec: Record<string, unknown> = { color: 'red' }, metadata: Record<string, unknown> = {}) {
  return { apiVersion, kind: 'CronTab', metadata: { name, ...metadata }, spec };
}

async function ok(res: Promise<{ status: number; text: string; json(): any }>, code = 201): Promise<any> {
  const r = await res;
  assert.equal(r.status, code, r.text);
  return r.json();
}

describe('custom resources across versions and servers', () => {
  it('serves two versions with strategy None: written in one, read in the other', async () => {
    const crd = widgetCrd({
      group: 'stable.example.com',
      plural: 'crontabs',
      kind: 'CronTab',
      versions: [widgetVersion('v1beta1', false, { deprecated: true }), widgetVersion('v1', true)],
    });
    crd.spec.names.shortNames = ['ct'];
    await createEstablishedCrd(fx, crd);
    await eventually(() => fx.request('GET', v1beta1), (r) => r.status === 200, 5000);
    const created = await ok(fx.request('POST', v1beta1, { body: cronTab('stable.example.com/v1beta1', 'old') }));
    assert.equal(created.apiVersion, 'stable.example.com/v1beta1');
    const asV1 = await ok(fx.request('GET', `${v1}/old`), 200);
    assert.equal(asV1.apiVersion, 'stable.example.com/v1');
    assert.equal(asV1.spec.color, 'red');
    // Stored in the storage version, as JSON (no Protobuf message for a custom kind), under kube's key.
    const raw = JSON.parse((await etcdctlGet(fx.etcd.endpoint, '/registry/stable.example.com/crontabs/default/old')).toString());
    assert.equal(raw.apiVersion, 'stable.example.com/v1');
    assert.equal(raw.kind, 'CronTab');
    await ok(fx.request('POST', v1, { body: cronTab('stable.example.com/v1', 'new') }));
    const list = await ok(fx.request('GET', v1beta1), 200);
    assert.equal(list.apiVersion, 'stable.example.com/v1beta1');
    assert.deepEqual(
      list.items.map((i: any) => [i.metadata.name, i.apiVersion]),
      [
        ['new', 'stable.example.com/v1beta1'],
        ['old', 'stable.example.com/v1beta1'],
      ],
    );
    // A watch in the other version sees converted events.
    const w = await openWatch(fx, `${v1beta1}?watch=1&resourceVersion=${list.metadata.resourceVersion}`);
    try {
      await ok(fx.request('PATCH', `${v1}/new`, { body: { spec: { color: 'blue' } }, headers: { 'Content-Type': 'application/merge-patch+json' } }), 200);
      const ev = await w.next(5000);
      assert.equal(ev.type, 'MODIFIED');
      assert.equal(ev.object.apiVersion, 'stable.example.com/v1beta1');
      assert.equal(ev.object.spec.color, 'blue');
    } finally {
      w.close();
    }
    // An update through the non-storage version.
    const old = await ok(fx.request('GET', `${v1beta1}/old`), 200);
    old.spec.size = 9;
    const put = await ok(fx.request('PUT', `${v1beta1}/old`, { body: old }), 200);
    assert.equal(put.apiVersion, 'stable.example.com/v1beta1');
    assert.equal(put.metadata.generation, 2);
    // The deprecated version warns on every request.
    const res = await fx.request('GET', `${v1beta1}/old`);
    assert.equal(res.headers.warning, '299 - "stable.example.com/v1beta1 CronTab is deprecated"');
    assert.equal((await fx.request('GET', `${v1}/old`)).headers.warning, undefined);
    assert.equal((await fx.request('GET', `${v1beta1}/old/scale`)).headers.warning, '299 - "stable.example.com/v1beta1 CronTab is deprecated"');
  });

  it('records a new storage version in status.storedVersions and keeps serving old objects', async () => {
    const switched = await eventually(
      async () => {
        const crd = await ok(fx.request('GET', `${crdPath}/crontabs.stable.example.com`), 200);
        crd.spec.versions[0].storage = true;
        crd.spec.versions[1].storage = false;
        crd.spec.versions[0].deprecationWarning = 'use v1';
        return await fx.request('PUT', `${crdPath}/crontabs.stable.example.com`, { body: crd });
      },
      (r) => r.status !== 409,
      5000,
    );
    assert.equal(switched.status, 200, switched.text);
    const warned = await eventually(() => fx.request('GET', `${v1beta1}/old`), (r) => r.headers.warning === '299 - "use v1"', 5000);
    assert.equal(warned.headers.warning, '299 - "use v1"');
    await ok(fx.request('POST', v1, { body: cronTab('stable.example.com/v1', 'stored-in-beta') }));
    const after = await ok(fx.request('GET', `${crdPath}/crontabs.stable.example.com`), 200);
    assert.deepEqual([...after.status.storedVersions].sort(), ['v1', 'v1beta1']);
    assert.equal((await ok(fx.request('GET', `${v1}/stored-in-beta`), 200)).apiVersion, 'stable.example.com/v1');
    const raw = JSON.parse((await etcdctlGet(fx.etcd.endpoint, '/registry/stable.example.com/crontabs/default/stored-in-beta')).toString());
    assert.equal(raw.apiVersion, 'stable.example.com/v1beta1');
    assert.equal((await ok(fx.request('GET', `${v1}/old`), 200)).spec.size, 9);
  });

  it('keeps serving after a restart, and a second server on the same etcd serves the CRD', async () => {
    await fx.restart();
    // Ready means the CRDs that exist are served (crd-informer-synced).
    const got = await fx.request('GET', `${v1}/old`);
    assert.equal(got.status, 200, got.text);
    const readyz = await fx.request('GET', '/readyz?verbose');
    assert.match(readyz.text, /\[\+\]poststarthook\/crd-informer-synced ok/);
    const second = await startServerOn([fx.etcd.endpoint]);
    try {
      await second.server.ready;
      const r = await second.request('GET', `${v1beta1}/new`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json().apiVersion, 'stable.example.com/v1beta1');
      await ok(second.request('POST', v1, { body: cronTab('stable.example.com/v1', 'from-second') }));
      const seen = await eventually(() => fx.request('GET', `${v1}/from-second`), (x) => x.status === 200, 5000);
      assert.equal(seen.status, 200);
      // A CRD created through one server is served by the other as soon as its informer sees it.
      const crd = widgetCrd({ group: 'multi.example.com', plural: 'sprockets', kind: 'Sprocket' });
      crd.spec.names.shortNames = [];
      crd.spec.names.categories = [];
      await createEstablishedCrd(fx, crd);
      const onSecond = await eventually(() => second.request('GET', '/apis/multi.example.com/v1/namespaces/default/sprockets'), (x) => x.status === 200, 5000);
      assert.equal(onSecond.status, 200, onSecond.text);
    } finally {
      await second.stop();
    }
  });

  it('deletes custom resources with their namespace', async () => {
    await ok(fx.request('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'cr-ns' } } }));
    const inNs = '/apis/stable.example.com/v1/namespaces/cr-ns/crontabs';
    await ok(fx.request('POST', inNs, { body: cronTab('stable.example.com/v1', 'doomed') }));
    await ok(fx.request('DELETE', '/api/v1/namespaces/cr-ns'), 200);
    const gone = await eventually(() => fx.request('GET', '/api/v1/namespaces/cr-ns'), (r) => r.status === 404, 20_000);
    assert.equal(gone.status, 404, gone.text);
    assert.equal((await fx.request('GET', `${inNs}/doomed`)).status, 404);
  });

  it('garbage-collects custom resources whose owner is gone, and dependents of a custom resource', async () => {
    const owner = await ok(fx.request('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cr-owner' } } }));
    const ownerRef = { apiVersion: 'v1', kind: 'ConfigMap', name: 'cr-owner', uid: owner.metadata.uid };
    await ok(fx.request('POST', v1, { body: cronTab('stable.example.com/v1', 'owned', { color: 'x' }, { ownerReferences: [ownerRef] }) }));
    const parent = await ok(fx.request('POST', v1, { body: cronTab('stable.example.com/v1', 'parent') }));
    const crRef = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'parent', uid: parent.metadata.uid };
    await ok(fx.request('POST', '/api/v1/namespaces/default/configmaps', { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cr-dependent', ownerReferences: [crRef] } } }));
    await ok(fx.request('DELETE', '/api/v1/namespaces/default/configmaps/cr-owner'), 200);
    await ok(fx.request('DELETE', `${v1}/parent`), 200);
    const owned = await eventually(() => fx.request('GET', `${v1}/owned`), (r) => r.status === 404, 15_000);
    assert.equal(owned.status, 404, owned.text);
    const dep = await eventually(() => fx.request('GET', '/api/v1/namespaces/default/configmaps/cr-dependent'), (r) => r.status === 404, 15_000);
    assert.equal(dep.status, 404, dep.text);
  });

  it('refuses creates while the CRD terminates, and stops serving once it is gone', async () => {
    const crd = widgetCrd({ group: 'term.example.com', plural: 'things', kind: 'Thing' });
    crd.metadata.finalizers = ['example.com/hold'];
    crd.spec.names.shortNames = [];
    crd.spec.names.categories = [];
    await createEstablishedCrd(fx, crd);
    const path = '/apis/term.example.com/v1/namespaces/default/things';
    await eventually(() => fx.request('GET', path), (r) => r.status === 200, 5000);
    await ok(fx.request('DELETE', `${crdPath}/things.term.example.com`), 200);
    const refused = await eventually(
      () => fx.request('POST', path, { body: { apiVersion: 'term.example.com/v1', kind: 'Thing', metadata: { name: 'late' } } }),
      (r) => r.status === 405,
      5000,
    );
    assert.equal(refused.status, 405, refused.text);
    assert.equal(refused.json().reason, 'MethodNotAllowed');
    assert.equal(refused.json().message, 'create not allowed while custom resource definition is terminating');
    // Drop the test's finalizer, retrying when a CRD controller wrote in between (409).
    await eventually(
      async () => {
        const cur = await fx.request('GET', `${crdPath}/things.term.example.com`);
        if (cur.status !== 200) return cur;
        const crdNow = cur.json();
        crdNow.metadata.finalizers = (crdNow.metadata.finalizers ?? []).filter((f: string) => f !== 'example.com/hold');
        return await fx.request('PUT', `${crdPath}/things.term.example.com`, { body: crdNow });
      },
      (r) => r.status === 200 || r.status === 404,
      5000,
    );
    const gone = await eventually(() => fx.request('GET', path), (r) => r.status === 404, 15_000);
    assert.equal(gone.status, 404, gone.text);
  });
});
