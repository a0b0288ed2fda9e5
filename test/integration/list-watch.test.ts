/**
 * Lists and watches exactly as kube: the list envelope, selectors, paging over one snapshot,
 * the resourceVersion rules with their 400/410/422/504 answers, and watch streams.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useServer } from '../support/server.js';
import { openWatch } from '../support/watch.js';

// A one-event watch cache window, so that a watch can start older than it (410 Expired).
// Counts and orders configmaps in its namespace: without the kube-root-ca.crt every namespace gets.
const fx = useServer({ watchCacheTuning: { minWindow: 1, maxWindow: 1 } }, ['--controllers=*,-root-ca-cert-publisher', '--feature-gates=WatchList=true']);
const ns = 'lw';
const cms = `/api/v1/namespaces/${ns}/configmaps`;

function cm(name: string, labels: Record<string, string> = {}) {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { v: '1' } };
}

describe('lists', () => {
  it('setup: a namespace with five labelled ConfigMaps', async () => {
    assert.equal((await fx.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status, 201);
    for (const [i, name] of ['a', 'b', 'c', 'd', 'e'].entries()) {
      const res = await fx.request('POST', cms, { body: cm(name, { parity: i % 2 === 0 ? 'even' : 'odd', tier: name === 'e' ? 'web' : 'db' }) });
      assert.equal(res.status, 201);
    }
  });

  it('the list envelope: <Kind>List, apiVersion, metadata.resourceVersion, no continue on the last page', async () => {
    const res = await fx.request('GET', cms);
    const list = res.json();
    assert.equal(list.kind, 'ConfigMapList');
    assert.equal(list.apiVersion, 'v1');
    assert.match(list.metadata.resourceVersion, /^\d+$/);
    assert.equal(list.metadata.continue, undefined);
    assert.equal(list.metadata.remainingItemCount, undefined);
    assert.deepEqual(list.items.map((i: any) => i.metadata.name), ['a', 'b', 'c', 'd', 'e']);
    assert.equal(list.items[0].kind, 'ConfigMap');
  });

  it('label selectors: =, ==, !=, in, notin, exists, !key; syntax errors are 400', async () => {
    const names = async (sel: string): Promise<string[]> => {
      const res = await fx.request('GET', `${cms}?labelSelector=${encodeURIComponent(sel)}`);
      assert.equal(res.status, 200, `${sel}: ${res.text}`);
      return res.json().items.map((i: any) => i.metadata.name);
    };
    assert.deepEqual(await names('parity=even'), ['a', 'c', 'e']);
    assert.deepEqual(await names('parity==odd'), ['b', 'd']);
    assert.deepEqual(await names('parity!=even'), ['b', 'd']);
    assert.deepEqual(await names('tier in (web)'), ['e']);
    assert.deepEqual(await names('tier notin (web),parity=even'), ['a', 'c']);
    assert.deepEqual(await names('tier'), ['a', 'b', 'c', 'd', 'e']);
    assert.deepEqual(await names('!tier'), []);
    const bad = await fx.request('GET', `${cms}?labelSelector=${encodeURIComponent('a in (b')}`);
    assert.equal(bad.status, 400);
    assert.equal(bad.json().reason, 'BadRequest');
    assert.match(bad.json().message, /unable to parse requirement|found/);
  });

  it('field selectors: metadata.name and metadata.namespace; per-type fields; unknown fields are 400', async () => {
    const one = (await fx.request('GET', `${cms}?fieldSelector=metadata.name%3Dc`)).json();
    assert.deepEqual(one.items.map((i: any) => i.metadata.name), ['c']);
    const notC = (await fx.request('GET', `${cms}?fieldSelector=metadata.name!%3Dc`)).json();
    assert.equal(notC.items.length, 4);
    const all = (await fx.request('GET', `/api/v1/configmaps?fieldSelector=metadata.namespace%3D${ns}`)).json();
    assert.equal(all.items.length, 5);
    const bad = await fx.request('GET', `${cms}?fieldSelector=spec.nodeName%3Dx`);
    assert.equal(bad.status, 400);
    assert.equal(bad.json().reason, 'BadRequest');
    const pods = await fx.request('GET', `/api/v1/namespaces/${ns}/pods?fieldSelector=spec.nodeName%3Dnode-1,status.phase%3DRunning`);
    assert.equal(pods.status, 200, pods.text);
    const podsBad = await fx.request('GET', `/api/v1/namespaces/${ns}/pods?fieldSelector=spec.foo%3Dx`);
    assert.equal(podsBad.status, 400);
    assert.equal(podsBad.json().message, 'field label not supported: spec.foo');
  });

  it('limit/continue pages over one snapshot with remainingItemCount', async () => {
    const p1 = (await fx.request('GET', `${cms}?limit=2`)).json();
    assert.deepEqual(p1.items.map((i: any) => i.metadata.name), ['a', 'b']);
    assert.equal(p1.metadata.remainingItemCount, 3);
    assert.ok(p1.metadata.continue);
    await fx.request('DELETE', `${cms}/c`);
    await fx.request('POST', cms, { body: cm('f') });
    const p2 = (await fx.request('GET', `${cms}?limit=2&continue=${encodeURIComponent(p1.metadata.continue)}`)).json();
    assert.deepEqual(p2.items.map((i: any) => i.metadata.name), ['c', 'd'], 'the snapshot still holds c and not f');
    assert.equal(p2.metadata.resourceVersion, p1.metadata.resourceVersion);
    assert.equal(p2.metadata.remainingItemCount, 1);
    const p3 = (await fx.request('GET', `${cms}?limit=2&continue=${encodeURIComponent(p2.metadata.continue)}`)).json();
    assert.deepEqual(p3.items.map((i: any) => i.metadata.name), ['e']);
    assert.equal(p3.metadata.continue, undefined);
    const withSelector = (await fx.request('GET', `${cms}?limit=1&labelSelector=parity%3Deven`)).json();
    assert.equal(withSelector.items.length, 1);
    assert.equal(withSelector.metadata.remainingItemCount, undefined);
    assert.ok(withSelector.metadata.continue);
  });

  it('invalid combinations: continue with a resourceVersion is 400; resourceVersionMatch misuse is 422', async () => {
    const p1 = (await fx.request('GET', `${cms}?limit=1`)).json();
    const withRV = await fx.request('GET', `${cms}?limit=1&continue=${encodeURIComponent(p1.metadata.continue)}&resourceVersion=5`);
    assert.equal(withRV.status, 400);
    assert.equal(withRV.json().message, 'specifying resource version is not allowed when using continue');
    const badToken = await fx.request('GET', `${cms}?limit=1&continue=garbage`);
    assert.equal(badToken.status, 400);
    const exactNoRV = await fx.request('GET', `${cms}?resourceVersionMatch=Exact`);
    assert.equal(exactNoRV.status, 422);
    assert.match(exactNoRV.json().message, /^ListOptions\.meta\.k8s\.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided/);
    const exactZero = await fx.request('GET', `${cms}?resourceVersionMatch=Exact&resourceVersion=0`);
    assert.equal(exactZero.status, 422);
    const unknownMatch = await fx.request('GET', `${cms}?resourceVersionMatch=Newest&resourceVersion=1`);
    assert.equal(unknownMatch.status, 422);
    const sieOnList = await fx.request('GET', `${cms}?sendInitialEvents=true`);
    assert.equal(sieOnList.status, 422);
    const badRV = await fx.request('GET', `${cms}?resourceVersion=abc`);
    assert.equal(badRV.status, 400);
  });

  it('resourceVersion rules: Exact reads the past; a future version is 504 with Retry-After', async () => {
    const before = (await fx.request('GET', `${cms}/a`)).json();
    await fx.request('PATCH', `${cms}/a`, { rawBody: '{"data":{"v":"2"}}', headers: { 'content-type': 'application/merge-patch+json' } });
    const exact = (await fx.request('GET', `${cms}?resourceVersion=${before.metadata.resourceVersion}&resourceVersionMatch=Exact`)).json();
    assert.equal(exact.metadata.resourceVersion, before.metadata.resourceVersion);
    assert.equal(exact.items.find((i: any) => i.metadata.name === 'a').data.v, '1');
    const notOlder = (await fx.request('GET', `${cms}?resourceVersion=${before.metadata.resourceVersion}&resourceVersionMatch=NotOlderThan`)).json();
    assert.equal(notOlder.items.find((i: any) => i.metadata.name === 'a').data.v, '2');
    const legacyPaged = (await fx.request('GET', `${cms}?resourceVersion=${before.metadata.resourceVersion}&limit=10`)).json();
    assert.equal(legacyPaged.items.find((i: any) => i.metadata.name === 'a').data.v, '1', 'an RV with a limit is exact');
    const any = await fx.request('GET', `${cms}?resourceVersion=0`);
    assert.equal(any.status, 200);
    const future = String(Number(before.metadata.resourceVersion) + 100000);
    for (const path of [`${cms}?resourceVersion=${future}`, `${cms}?resourceVersion=${future}&resourceVersionMatch=Exact`, `${cms}/a?resourceVersion=${future}`]) {
      const res = await fx.request('GET', path);
      assert.equal(res.status, 504, path);
      assert.equal(res.headers['retry-after'], '1');
      const s = res.json();
      assert.equal(s.reason, 'Timeout');
      assert.match(s.message, /^Timeout: Too large resource version: \d+, current: \d+$/);
      assert.deepEqual(s.details.causes, [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }]);
      assert.equal(s.details.retryAfterSeconds, 1);
    }
  });
});

describe('watches', () => {
  it('a watch from "" starts with synthetic ADDED events, then streams changes', async () => {
    const w = await openWatch(fx, `${cms}?watch=true&labelSelector=tier%3Ddb`);
    assert.equal(w.status, 200);
    assert.equal(w.headers['content-type'], 'application/json');
    assert.equal(w.headers['transfer-encoding'], 'chunked');
    const initial = [await w.next(), await w.next(), await w.next()];
    assert.deepEqual(initial.map((e) => e.type), ['ADDED', 'ADDED', 'ADDED']);
    await fx.request('PATCH', `${cms}/b`, { rawBody: '{"data":{"v":"9"}}', headers: { 'content-type': 'application/merge-patch+json' } });
    const mod = await w.next();
    assert.equal(mod.type, 'MODIFIED');
    assert.equal(mod.object.kind, 'ConfigMap');
    assert.equal(mod.object.data.v, '9');
    await fx.request('PATCH', `${cms}/b`, { rawBody: '{"metadata":{"labels":{"tier":"web"}}}', headers: { 'content-type': 'application/merge-patch+json' } });
    const left = await w.next();
    assert.equal(left.type, 'DELETED', 'leaving the selector is DELETED');
    assert.equal(left.object.metadata.labels.tier, 'web');
    w.close();
  });

  it('a watch from an exact resourceVersion sends no initial state, only what follows', async () => {
    const list = (await fx.request('GET', cms)).json();
    const w = await openWatch(fx, `${cms}?watch=1&resourceVersion=${list.metadata.resourceVersion}`);
    await fx.request('POST', cms, { body: cm('g') });
    await fx.request('DELETE', `${cms}/g`);
    const [a, d] = [await w.next(), await w.next()];
    assert.deepEqual([a.type, a.object.metadata.name], ['ADDED', 'g']);
    assert.deepEqual([d.type, d.object.metadata.name], ['DELETED', 'g']);
    assert.ok(Number(d.object.metadata.resourceVersion) > Number(a.object.metadata.resourceVersion));
    w.close();
  });

  it('the deprecated /watch/ path and a named watch select one object', async () => {
    const w = await openWatch(fx, `/api/v1/watch/namespaces/${ns}/configmaps/d`);
    const first = await w.next();
    assert.deepEqual([first.type, first.object.metadata.name], ['ADDED', 'd']);
    await fx.request('PATCH', `${cms}/e`, { rawBody: '{"data":{"v":"x"}}', headers: { 'content-type': 'application/merge-patch+json' } });
    await fx.request('PATCH', `${cms}/d`, { rawBody: '{"data":{"v":"y"}}', headers: { 'content-type': 'application/merge-patch+json' } });
    const next = await w.next();
    assert.deepEqual([next.type, next.object.metadata.name], ['MODIFIED', 'd']);
    w.close();
  });

  it('sendInitialEvents=true: initial ADDED events, then a bookmark with k8s.io/initial-events-end', async () => {
    const w = await openWatch(fx, `${cms}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&labelSelector=parity%3Dodd`);
    const events: any[] = [];
    for (;;) {
      const ev = await w.next();
      assert.ok(ev, 'stream continues');
      events.push(ev);
      if (ev.type === 'BOOKMARK') break;
    }
    assert.ok(events.slice(0, -1).every((e) => e.type === 'ADDED'));
    const bm = events[events.length - 1];
    assert.equal(bm.object.kind, 'ConfigMap');
    assert.equal(bm.object.apiVersion, 'v1');
    assert.equal(bm.object.metadata.annotations['k8s.io/initial-events-end'], 'true');
    assert.match(bm.object.metadata.resourceVersion, /^\d+$/);
    w.close();
    const bad = await fx.request('GET', `${cms}?watch=true&sendInitialEvents=true`);
    assert.equal(bad.status, 422);
    assert.match(bad.json().message, /sendInitialEvents requires setting resourceVersionMatch to NotOlderThan/);
  });

  it('timeoutSeconds ends the stream cleanly', async () => {
    const list = (await fx.request('GET', cms)).json();
    const w = await openWatch(fx, `${cms}?watch=true&resourceVersion=${list.metadata.resourceVersion}&timeoutSeconds=1`);
    const started = Date.now();
    const ev = await w.next(5000);
    assert.equal(ev, undefined);
    assert.ok(w.ended());
    assert.ok(Date.now() - started < 4000);
  });

  it('a watch as a Table prints rows (kubectl get -w)', async () => {
    const list = (await fx.request('GET', cms)).json();
    const w = await openWatch(fx, `${cms}?watch=true&resourceVersion=${list.metadata.resourceVersion}`, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    await fx.request('POST', cms, { body: cm('t1') });
    await fx.request('POST', cms, { body: cm('t2') });
    const [e1, e2] = [await w.next(), await w.next()];
    assert.equal(e1.object.kind, 'Table');
    assert.deepEqual(e1.object.columnDefinitions.map((c: any) => c.name), ['Name', 'Data', 'Age']);
    assert.equal(e1.object.rows[0].cells[0], 't1');
    assert.equal(e2.object.columnDefinitions, null, 'headers only on the first event');
    w.close();
  });

  it('a watch from before the watch cache window (or a compacted resourceVersion) is 410 Expired before the stream starts', async () => {
    const old = (await fx.request('GET', cms)).json().metadata.resourceVersion;
    const page = (await fx.request('GET', `${cms}?limit=2`)).json();
    await fx.request('POST', cms, { body: cm('h1') });
    await fx.request('POST', cms, { body: cm('h2') });
    const { Etcd3 } = await import('etcd3');
    const client = new Etcd3({ hosts: fx.etcd.endpoint });
    try {
      const rev = (await client.kv.range({ key: Buffer.from('x') })).header.revision;
      await client.kv.compact({ revision: rev, physical: true });
    } finally {
      client.close();
    }
    const res = await fx.request('GET', `${cms}?watch=true&resourceVersion=${old}`);
    assert.equal(res.status, 410);
    const s = res.json();
    assert.equal(s.reason, 'Expired');
    assert.equal(s.code, 410);
    const listOld = await fx.request('GET', `${cms}?resourceVersion=${old}&resourceVersionMatch=Exact`);
    assert.equal(listOld.status, 410);
    const cont = await fx.request('GET', `${cms}?limit=2&continue=${encodeURIComponent(page.metadata.continue)}`);
    assert.equal(cont.status, 410);
    const expired = cont.json();
    assert.equal(expired.reason, 'Expired');
    assert.match(expired.message, /^The provided continue parameter is too old to display a consistent list result/);
    assert.ok(expired.metadata.continue, 'an inconsistent continue token is offered');
    const rest = await fx.request('GET', `${cms}?limit=100&continue=${encodeURIComponent(expired.metadata.continue)}`);
    assert.equal(rest.status, 200);
    assert.ok(rest.json().items.some((i: any) => i.metadata.name === 'h2'), 'continuing inconsistently reads the latest state');
  });
});
