/**
 * Custom resources served live against real etcd: a CRD's resource appears in discovery, serves
 * every verb, label and field selectors (selectableFields), watch with bookmarks, JSON and merge
 * patch, server-side apply, 415 for strategic merge patch, 406 for Protobuf,
 * Tables with the printer columns, status and scale subresources, and stops serving (404) once
 * the CRD is deleted.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createEstablishedCrd, eventually, widgetCrd } from '../support/crds.js';
import { useServer } from '../support/server.js';
import { openWatch } from '../support/watch.js';

const fx = useServer({}, ['--feature-gates=WatchList=true']);
const base = '/apis/example.com/v1';
const widgets = `${base}/namespaces/default/widgets`;

function widget(name: string, spec: Record<string, unknown>, labels: Record<string, string> = {}) {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, labels }, spec };
}

describe('custom resources', () => {
  it('serves a CRD’s resource in discovery with its names, verbs and subresources', async () => {
    await createEstablishedCrd(fx, widgetCrd());
    const res = await eventually(() => fx.request('GET', base), (r) => r.status === 200, 5000);
    assert.equal(res.status, 200, res.text);
    const list = res.json();
    assert.equal(list.kind, 'APIResourceList');
    assert.equal(list.groupVersion, 'example.com/v1');
    const names = list.resources.map((r: any) => r.name).sort();
    assert.deepEqual(names, ['widgets', 'widgets/scale', 'widgets/status']);
    const main = list.resources.find((r: any) => r.name === 'widgets');
    assert.equal(main.kind, 'Widget');
    assert.equal(main.singularName, 'widget');
    assert.equal(main.namespaced, true);
    assert.deepEqual(main.shortNames, ['wd']);
    assert.deepEqual(main.categories, ['all']);
    assert.deepEqual(main.verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    assert.match(main.storageVersionHash, /^[A-Za-z0-9+/]{11}=$/);
    const scale = list.resources.find((r: any) => r.name === 'widgets/scale');
    assert.deepEqual([scale.group, scale.version, scale.kind], ['autoscaling', 'v1', 'Scale']);
    const groups = (await fx.request('GET', '/apis')).json();
    assert.ok(groups.groups.some((g: any) => g.name === 'example.com' && g.preferredVersion.version === 'v1'));
    const aggregated = await fx.request('GET', '/apis', { headers: { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } });
    assert.equal(aggregated.status, 200, aggregated.text);
    const group = aggregated.json().items.find((g: any) => g.metadata.name === 'example.com');
    const resource = group.versions[0].resources.find((r: any) => r.resource === 'widgets');
    assert.equal(resource.responseKind.kind, 'Widget');
    assert.equal(resource.scope, 'Namespaced');
    assert.deepEqual(resource.subresources.map((x: any) => x.subresource).sort(), ['scale', 'status']);
  });

  it('creates, reads, updates and deletes with generation and status rules', async () => {
    const created = await fx.request('POST', widgets, { body: { ...widget('w1', { color: 'red', size: 3 }), status: { phase: 'ignored' } } });
    assert.equal(created.status, 201, created.text);
    const w = created.json();
    assert.equal(w.metadata.generation, 1);
    assert.equal(w.status, undefined, 'status is dropped on create with the status subresource');
    assert.equal(w.apiVersion, 'example.com/v1');
    const got = (await fx.request('GET', `${widgets}/w1`)).json();
    assert.equal(got.spec.color, 'red');
    got.spec.color = 'blue';
    got.status = { phase: 'ignored' };
    const put = await fx.request('PUT', `${widgets}/w1`, { body: got });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.json().metadata.generation, 2);
    assert.equal(put.json().status, undefined);
    const labelsOnly = put.json();
    labelsOnly.metadata.labels = { tier: 'a' };
    const put2 = await fx.request('PUT', `${widgets}/w1`, { body: labelsOnly });
    assert.equal(put2.json().metadata.generation, 2, 'metadata changes keep generation');
    const st = put2.json();
    st.status = { phase: 'Running', replicas: 2 };
    st.spec.color = 'ignored-by-status';
    const status = await fx.request('PUT', `${widgets}/w1/status`, { body: st });
    assert.equal(status.status, 200, status.text);
    assert.equal(status.json().status.phase, 'Running');
    assert.equal(status.json().spec.color, 'blue', 'a status write keeps the spec');
    assert.equal(status.json().metadata.generation, 2);
    const wrongKind = await fx.request('POST', widgets, { body: { ...widget('w2', {}), kind: 'Gadget' } });
    assert.equal(wrongKind.status, 400, wrongKind.text);
    const del = await fx.request('DELETE', `${widgets}/w1`);
    assert.equal(del.status, 200, del.text);
    assert.equal((await fx.request('GET', `${widgets}/w1`)).status, 404);
  });

  it('lists with label and field selectors (selectableFields) and refuses unknown field labels', async () => {
    for (const [n, color, tier] of [['a', 'red', 'x'], ['b', 'green', 'x'], ['c', 'red', 'y']] as const) {
      assert.equal((await fx.request('POST', widgets, { body: widget(`sel-${n}`, { color }, { tier }) })).status, 201);
    }
    const names = async (q: string): Promise<string[]> => {
      const r = await fx.request('GET', `${widgets}?${q}`);
      assert.equal(r.status, 200, r.text);
      return r.json().items.map((i: any) => i.metadata.name).sort();
    };
    assert.deepEqual(await names('labelSelector=tier%3Dx'), ['sel-a', 'sel-b']);
    assert.deepEqual(await names('fieldSelector=spec.color%3Dred'), ['sel-a', 'sel-c']);
    assert.deepEqual(await names('fieldSelector=spec.color%3Dred&labelSelector=tier%3Dy'), ['sel-c']);
    assert.deepEqual(await names('fieldSelector=metadata.name%3Dsel-b'), ['sel-b']);
    const bad = await fx.request('GET', `${widgets}?fieldSelector=spec.size%3D1`);
    assert.equal(bad.status, 400);
    assert.equal(bad.json().message, '"spec.size" is not a known field selector: only "metadata.name", "metadata.namespace"');
    const list = (await fx.request('GET', `${widgets}?labelSelector=tier`)).json();
    assert.equal(list.kind, 'WidgetList');
    assert.equal(list.apiVersion, 'example.com/v1');
  });

  it('watches with bookmarks and selectors from the watch cache', async () => {
    const rv = (await fx.request('GET', widgets)).json().metadata.resourceVersion;
    const w = await openWatch(fx, `${widgets}?watch=1&resourceVersion=${rv}&allowWatchBookmarks=true&fieldSelector=spec.color%3Dpink`);
    try {
      assert.equal(w.status, 200);
      await fx.request('POST', widgets, { body: widget('watched', { color: 'pink' }) });
      await fx.request('POST', widgets, { body: widget('unwatched', { color: 'grey' }) });
      const ev = await w.next(5000);
      assert.equal(ev.type, 'ADDED');
      assert.equal(ev.object.metadata.name, 'watched');
      assert.equal(ev.object.kind, 'Widget');
    } finally {
      w.close();
    }
    const initial = await openWatch(fx, `${widgets}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&fieldSelector=spec.color%3Dpink`);
    try {
      const first = await initial.next(5000);
      assert.equal(first.type, 'ADDED');
      const bookmark = await initial.next(5000);
      assert.equal(bookmark.type, 'BOOKMARK');
      assert.equal(bookmark.object.kind, 'Widget');
      assert.equal(bookmark.object.metadata.annotations['k8s.io/initial-events-end'], 'true');
    } finally {
      initial.close();
    }
  });

  it('patches with JSON and merge patch, refuses strategic merge (415) and Protobuf (406)', async () => {
    await fx.request('POST', widgets, { body: widget('p1', { color: 'red', size: 1 }) });
    const merge = await fx.request('PATCH', `${widgets}/p1`, { body: { spec: { size: 5 } }, headers: { 'Content-Type': 'application/merge-patch+json' } });
    assert.equal(merge.status, 200, merge.text);
    assert.equal(merge.json().spec.size, 5);
    assert.equal(merge.json().metadata.generation, 2);
    const json = await fx.request('PATCH', `${widgets}/p1`, { body: [{ op: 'replace', path: '/spec/color', value: 'teal' }], headers: { 'Content-Type': 'application/json-patch+json' } });
    assert.equal(json.status, 200, json.text);
    assert.equal(json.json().spec.color, 'teal');
    const smp = await fx.request('PATCH', `${widgets}/p1`, { body: { spec: { size: 6 } }, headers: { 'Content-Type': 'application/strategic-merge-patch+json' } });
    assert.equal(smp.status, 415, smp.text);
    const pb = await fx.request('GET', `${widgets}/p1`, { headers: { Accept: 'application/vnd.kubernetes.protobuf' } });
    assert.equal(pb.status, 406, pb.text);
  });

  it('applies server-side: managers own their fields, conflicts are 409', async () => {
    const apply = (manager: string, spec: Record<string, unknown>) =>
      fx.request('PATCH', `${widgets}/ap?fieldManager=${manager}`, {
        body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'ap' }, spec },
        headers: { 'Content-Type': 'application/apply-patch+yaml' },
      });
    const a = await apply('one', { color: 'red' });
    assert.equal(a.status, 201, a.text);
    const b = await apply('two', { size: 4 });
    assert.equal(b.status, 200, b.text);
    assert.deepEqual(b.json().spec, { color: 'red', size: 4 });
    assert.deepEqual(b.json().metadata.managedFields.map((m: any) => m.manager).sort(), ['one', 'two']);
    const conflict = await apply('two', { size: 4, color: 'blue' });
    assert.equal(conflict.status, 409, conflict.text);
    assert.match(conflict.json().message, /conflict with "one"/);
  });

  it('prints Tables with the printer columns', async () => {
    await fx.request('POST', widgets, { body: widget('t1', { color: 'red', size: 2 }) });
    const st = (await fx.request('GET', `${widgets}/t1`)).json();
    st.status = { conditions: [{ type: 'Other', status: 'False' }, { type: 'Ready', status: 'True' }] };
    assert.equal((await fx.request('PUT', `${widgets}/t1/status`, { body: st })).status, 200);
    const res = await fx.request('GET', `${widgets}/t1`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    assert.equal(res.status, 200, res.text);
    const table = res.json();
    assert.equal(table.kind, 'Table');
    assert.deepEqual(
      table.columnDefinitions.map((c: any) => [c.name, c.type, c.format, c.priority]),
      [
        ['Name', 'string', 'name', 0],
        ['Color', 'string', '', 0],
        ['Size', 'integer', '', 0],
        ['Ready', 'string', '', 1],
        ['Age', 'date', '', 0],
      ],
    );
    assert.equal(table.columnDefinitions[2].description, 'how big');
    assert.equal(table.columnDefinitions[1].description, 'Custom resource definition column (in JSONPath format): .spec.color');
    const cells = table.rows[0].cells;
    assert.deepEqual(cells.slice(0, 4), ['t1', 'red', 2, 'True']);
    assert.match(cells[4], /^\d+s$/);
  });

  it('serves the scale subresource from the CRD’s paths', async () => {
    await fx.request('POST', widgets, { body: widget('s1', { replicas: 2, selector: 'app=s1' }) });
    const scale = await fx.request('GET', `${widgets}/s1/scale`);
    assert.equal(scale.status, 200, scale.text);
    const s = scale.json();
    assert.equal(s.kind, 'Scale');
    assert.equal(s.apiVersion, 'autoscaling/v1');
    assert.equal(s.spec.replicas, 2);
    assert.equal(s.status.selector, 'app=s1');
    s.spec.replicas = 7;
    const put = await fx.request('PUT', `${widgets}/s1/scale`, { body: s });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.json().spec.replicas, 7);
    assert.equal((await fx.request('GET', `${widgets}/s1`)).json().spec.replicas, 7);
    const neg = await fx.request('POST', widgets, { body: widget('s2', { replicas: -1 }) });
    assert.equal(neg.status, 422, neg.text);
    assert.match(neg.json().message, /\.spec\.replicas: Invalid value: -1: should be a non-negative integer/);
  });

  it('stops serving when the CRD is deleted', async () => {
    const crd = widgetCrd({ plural: 'gadgets', kind: 'Gadget' });
    crd.spec.names.shortNames = [];
    await createEstablishedCrd(fx, crd);
    const path = '/apis/example.com/v1/namespaces/default/gadgets';
    const ok = await eventually(() => fx.request('GET', path), (r) => r.status === 200, 5000);
    assert.equal(ok.status, 200, ok.text);
    const del = await fx.request('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.com');
    assert.ok(del.status === 200 || del.status === 202, del.text);
    // With the cleanup finalizer the CRD terminates first: creates are refused meanwhile.
    const gone = await eventually(() => fx.request('GET', path), (r) => r.status === 404, 10_000);
    assert.equal(gone.status, 404, gone.text);
    // Created again, it is served again from a fresh watch cache.
    await eventually(() => fx.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.com'), (r) => r.status === 404, 10_000);
    await createEstablishedCrd(fx, crd);
    const again = await eventually(() => fx.request('GET', path), (r) => r.status === 200, 5000);
    assert.equal(again.status, 200, again.text);
    const created = await fx.request('POST', path, { body: { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g2' }, spec: {} } });
    assert.equal(created.status, 201, created.text);
    const w = await openWatch(fx, `${path}?watch=1&resourceVersion=${created.json().metadata.resourceVersion}`);
    try {
      await fx.request('DELETE', `${path}/g2`);
      assert.equal((await w.next(5000)).type, 'DELETED');
    } finally {
      w.close();
    }
  });
});
