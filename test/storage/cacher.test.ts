/**
 * The watch cache: the storage contract against it (as against etcd), and what only a cache has:
 * serving from memory without etcd reads, the event window and its 410, slow watchers ended
 * without the server's memory growing, the pod index, paging over snapshots, start-up (paged
 * initial lists, lists waiting for a loading cache, etcd's continue tokens), and the
 * --watch-cache-sizes rules.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta/types.js';
import { Cacher } from '../../internal/storage/cacher/cacher.js';
import { cacheEnabledFor, WatchCacheStorage } from '../../internal/storage/cacher/router.js';
import { jsonCodec } from '../../internal/storage/codec.js';
import { encodedJsonOf, encodedJsonOfEvent } from '../../internal/storage/encoded.js';
import { isStorageError } from '../../internal/storage/errors.js';
import { Etcd3Store } from '../../internal/storage/etcd3/store.js';
import type { ListOptions, SelectionPredicate } from '../../internal/storage/interface.js';
import { uniquePrefix, useEtcd } from '../support/etcd.js';
import { nextEvents, storageContract } from './contract.js';

const fx = useEtcd();
const made: Cacher[] = [];
after(() => {
  for (const c of made) c.stop();
});

async function newCache(extra: Partial<ConstructorParameters<typeof Cacher>[0]> = {}, keyPrefix = '/configmaps'): Promise<{ cache: Cacher; etcd: Etcd3Store }> {
  const etcd = new Etcd3Store(fx.client, { prefix: uniquePrefix('cache'), codec: jsonCodec, bookmarkIntervalMs: 100 });
  const cache = new Cacher({ keyPrefix, source: etcd, ...extra });
  made.push(cache);
  await cache.waitReady();
  return { cache, etcd };
}

storageContract('watch cache', {
  newStore: async () => (await newCache()).cache,
  newStoreWithBookmarks: async (ms) => (await newCache({ bookmarkIntervalMs: ms })).cache,
  compact: async (store) => {
    const rev = await store.currentRevision();
    await fx.client.kv.compact({ revision: rev, physical: true });
  },
  windowOutlivesCompaction: true,
});

const everything: SelectionPredicate = { everything: true, matches: () => true };
const listOpts = (extra: Partial<ListOptions> = {}): ListOptions => ({ resourceVersion: '0', resourceVersionMatch: '', predicate: everything, recursive: true, ...extra });
const cm = (name: string, data: Record<string, string> = {}, ns = 'ns'): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data });

/** An etcd store that counts the reads that reach it. */
function counting(etcd: Etcd3Store): { reads: () => number } {
  let n = 0;
  for (const m of ['get', 'getList'] as const) {
    const orig = etcd[m].bind(etcd) as (...a: unknown[]) => Promise<unknown>;
    (etcd as unknown as Record<string, unknown>)[m] = (...a: unknown[]) => {
      n++;
      return orig(...a);
    };
  }
  return { reads: () => n };
}

async function until(cond: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('watch cache', () => {
  it('serves resourceVersion 0 gets and lists from memory, with the JSON bytes attached', async () => {
    const { cache, etcd } = await newCache();
    const a = await cache.create('/configmaps/ns/a', cm('a', { k: 'v' }));
    await until(() => encodedCount(cache) === 1);
    const reads = counting(etcd);
    const got = await cache.get('/configmaps/ns/a', { resourceVersion: '0' });
    assert.deepEqual(got, a);
    const bytes = encodedJsonOf(got);
    assert.ok(bytes);
    assert.deepEqual(JSON.parse(bytes.toString()), { kind: 'ConfigMap', apiVersion: 'v1', ...a });
    assert.equal(Object.keys(JSON.parse(bytes.toString()))[0], 'kind', 'kind first, as toExternal orders it');
    const list = await cache.getList('/configmaps/ns', listOpts());
    assert.equal(list.encodedItems?.length, 1);
    assert.equal(list.items[0]?.metadata.name, 'a');
    const notOlder = await cache.getList('/configmaps/ns', listOpts({ resourceVersion: a.metadata.resourceVersion ?? '', resourceVersionMatch: 'NotOlderThan' }));
    assert.equal(notOlder.items.length, 1);
    assert.equal(reads.reads(), 0, 'no read reached etcd');
    // A modified copy no longer claims the bytes.
    got.metadata.resourceVersion = '1';
    assert.equal(encodedJsonOf(got), undefined);
  });

  it('a most-recent list is served from the cache once one keys-only range proves it current', async () => {
    const { cache, etcd } = await newCache();
    await cache.create('/configmaps/ns/a', cm('a'));
    await until(() => encodedCount(cache) === 1);
    // Writes elsewhere move etcd's revision past the cache's without touching its prefix.
    await fx.client.put('/unrelated').value('x');
    const reads = counting(etcd);
    const list = await cache.getList('/configmaps/ns', listOpts({ resourceVersion: '' }));
    assert.equal(list.items.length, 1);
    assert.equal(BigInt(list.resourceVersion), BigInt(await etcd.currentRevision()));
    assert.equal(reads.reads(), 0);
    // Right after a write the list waits for the event and includes it.
    await cache.create('/configmaps/ns/b', cm('b'));
    const after = await cache.getList('/configmaps/ns', listOpts({ resourceVersion: '' }));
    assert.deepEqual(after.items.map((i) => i.metadata.name), ['a', 'b']);
  });

  it('a watch older than the window is 410 Expired, and the window replays what it holds', async () => {
    const { cache } = await newCache({ minWindow: 3, maxWindow: 3 });
    const first = await cache.create('/configmaps/ns/w0', cm('w0'));
    for (let i = 1; i <= 5; i++) await cache.create(`/configmaps/ns/w${i}`, cm(`w${i}`));
    await until(() => encodedCount(cache) === 6);
    await assert.rejects(cache.watch('/configmaps/ns', listOpts({ resourceVersion: first.metadata.resourceVersion ?? '' })), (err: unknown) => {
      assert.ok(isStorageError(err, 'Expired'));
      assert.match(err.message, /^too old resource version: \d+ \(\d+\)$/);
      return true;
    });
    const w3 = await cache.get('/configmaps/ns/w3', { resourceVersion: '0' });
    const w = await cache.watch('/configmaps/ns', listOpts({ resourceVersion: w3.metadata.resourceVersion ?? '' }));
    const evs = await nextEvents(w, 2);
    w.stop();
    assert.deepEqual(evs.map((e) => (e.type === 'ERROR' ? '' : e.object.metadata.name)), ['w4', 'w5']);
  });

  it('events carry their JSON and are shared by every watcher', async () => {
    const { cache } = await newCache();
    const rv = String(cache.currentRevision ? await cache.currentRevision() : '0');
    const w1 = await cache.watch('/configmaps', listOpts({ resourceVersion: rv }));
    const w2 = await cache.watch('/configmaps/ns', listOpts({ resourceVersion: rv }));
    await cache.create('/configmaps/ns/shared', cm('shared'));
    const [e1] = await nextEvents(w1, 1);
    const [e2] = await nextEvents(w2, 1);
    w1.stop();
    w2.stop();
    assert.ok(e1 && e2);
    assert.equal(e1, e2, 'one event object for both watchers');
    const bytes = encodedJsonOfEvent(e1);
    assert.ok(bytes);
    assert.equal(JSON.parse(bytes.toString()).metadata.name, 'shared');
  });

  it('a watcher that stops reading is ended once its buffer is full, and the cache lets go of it', async () => {
    let terminated = 0;
    const { cache } = await newCache({ maxBufferedEvents: 50, metrics: { terminatedWatcher: () => terminated++ } });
    const rv = await cache.currentRevision();
    const slow = await cache.watch('/configmaps', listOpts({ resourceVersion: rv }));
    const fast = await cache.watch('/configmaps', listOpts({ resourceVersion: rv }));
    const seen: string[] = [];
    const reading = (async () => {
      for await (const ev of fast) if (ev.type !== 'ERROR') seen.push(ev.object.metadata.name ?? '');
    })();
    await Promise.all(Array.from({ length: 200 }, (_, i) => cache.create(`/configmaps/ns/s${i}`, cm(`s${i}`))));
    await until(() => seen.length === 200, 10_000);
    assert.equal(terminated, 1, 'the slow watcher was ended and counted');
    assert.equal(cache.watchers, 1, 'only the reading watcher is still registered');
    // The ended watcher still yields what was buffered (at most its bound), then finishes.
    let drained = 0;
    for await (const _ of slow) drained++;
    assert.ok(drained <= 51, `at most the bound was kept (${drained})`);
    fast.stop();
    await reading;
  });

  it('pods are indexed by spec.nodeName for lists and watches', async () => {
    const nodeName = { field: 'spec.nodeName', valueOf: (o: KubeObject) => String((o.spec as { nodeName?: string } | undefined)?.nodeName ?? '') };
    const { cache } = await newCache({ indexedField: nodeName }, '/pods');
    const pod = (name: string, node: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { nodeName: node } });
    for (let i = 0; i < 6; i++) await cache.create(`/pods/ns/p${i}`, pod(`p${i}`, `node-${i % 3}`));
    await until(() => encodedCount(cache) === 6);
    let evaluated = 0;
    const onNode = (node: string): SelectionPredicate => ({
      everything: false,
      matches: (o) => {
        evaluated++;
        return (o.spec as { nodeName?: string }).nodeName === node;
      },
      requiredFieldValue: (f) => (f === 'spec.nodeName' ? node : undefined),
    });
    const list = await cache.getList('/pods', listOpts({ predicate: onNode('node-1') }));
    assert.deepEqual(list.items.map((p) => p.metadata.name), ['p1', 'p4']);
    assert.equal(evaluated, 2, 'only the indexed candidates were decoded and matched');
    const rv = await cache.currentRevision();
    const w = await cache.watch('/pods', listOpts({ resourceVersion: rv, predicate: onNode('node-2') }));
    evaluated = 0;
    await cache.create('/pods/ns/x', pod('x', 'node-0'));
    await cache.create('/pods/ns/y', pod('y', 'node-2'));
    await cache.guaranteedUpdate('/pods/ns/p2', { ignoreNotFound: false, tryUpdate: (p) => ({ ...p, spec: { nodeName: 'node-0' } }) });
    const evs = await nextEvents(w, 2);
    w.stop();
    assert.deepEqual(evs.map((e) => [e.type, e.type === 'ERROR' ? '' : e.object.metadata.name]), [['ADDED', 'y'], ['DELETED', 'p2']]);
    assert.ok(evaluated <= 3, `the watcher on node-2 never looked at node-0's pod x (${evaluated} evaluations)`);
  });

  it('pages of a limited list come from a snapshot of the cache, unaffected by later writes', async () => {
    const { cache, etcd } = await newCache();
    for (const n of ['a', 'b', 'c', 'd']) await cache.create(`/configmaps/ns/${n}`, cm(n, { v: '1' }));
    await until(() => encodedCount(cache) === 4);
    const reads = counting(etcd);
    const p1 = await cache.getList('/configmaps/ns', listOpts({ predicate: { ...everything, limit: 2 } }));
    assert.deepEqual(p1.items.map((i) => i.metadata.name), ['a', 'b']);
    assert.equal(p1.remainingItemCount, 2);
    await cache.delete('/configmaps/ns/c', {});
    const p2 = await cache.getList('/configmaps/ns', listOpts({ resourceVersion: '', predicate: { ...everything, limit: 2, continueToken: p1.continueToken } }));
    assert.deepEqual(p2.items.map((i) => i.metadata.name), ['c', 'd']);
    assert.equal(p2.continueToken, undefined);
    assert.equal(reads.reads(), 0, 'both pages came from memory');
  });

  it('restarts from a fresh list when its etcd watch fails, ending its watchers', async () => {
    const { cache } = await newCache();
    await cache.create('/configmaps/ns/a', cm('a'));
    const w = await cache.watch('/configmaps', listOpts({ resourceVersion: await cache.currentRevision() }));
    // Compaction cannot break a watch that is caught up, so break the source watch directly.
    (cache as unknown as { sourceWatch: { stop(): void } }).sourceWatch.stop();
    const evs = await nextEvents(w, 1, 3000);
    assert.deepEqual(evs, [], 'the watcher ended');
    await cache.waitReady();
    await cache.create('/configmaps/ns/b', cm('b'));
    await until(() => encodedCount(cache) === 2);
  });
});

describe('watch cache start-up', () => {
  it('loads its initial state in pages at one revision', async () => {
    const etcd = new Etcd3Store(fx.client, { prefix: uniquePrefix('cache'), codec: jsonCodec });
    for (const n of ['a', 'b', 'c', 'd', 'e']) await etcd.create(`/configmaps/ns/${n}`, cm(n));
    const rev = await etcd.currentRevision();
    const pages: number[] = [];
    const orig = etcd.getList.bind(etcd);
    etcd.getList = async (key, opts) => {
      const r = await orig(key, opts);
      pages.push(r.items.length);
      return r;
    };
    const cache = new Cacher({ keyPrefix: '/configmaps', source: etcd, initialListPageSize: 2 });
    made.push(cache);
    await cache.waitReady();
    assert.deepEqual(pages, [2, 2, 1]);
    const all = await cache.getList('/configmaps', listOpts());
    assert.deepEqual(all.items.map((i) => i.metadata.name), ['a', 'b', 'c', 'd', 'e']);
    assert.equal(all.resourceVersion, rev);
  });

  it('a paged list waits for a cache that is loading and is served by it, one etcd list for all', async () => {
    const etcd = new Etcd3Store(fx.client, { prefix: uniquePrefix('cache'), codec: jsonCodec });
    for (const n of ['a', 'b', 'c']) await etcd.create(`/configmaps/ns/${n}`, cm(n));
    let release = (): void => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const orig = etcd.getList.bind(etcd);
    let lists = 0;
    etcd.getList = async (key, opts) => {
      lists++;
      await gate;
      return await orig(key, opts);
    };
    const cache = new Cacher({ keyPrefix: '/configmaps', source: etcd, notReadyWaitMs: 5000 });
    made.push(cache);
    const pages = Array.from({ length: 10 }, () => cache.getList('/configmaps', listOpts({ predicate: { ...everything, limit: 2 } })));
    await new Promise((r) => setTimeout(r, 50));
    release();
    for (const p of await Promise.all(pages)) {
      assert.deepEqual(p.items.map((i) => i.metadata.name), ['a', 'b']);
      assert.ok(p.encodedItems, 'served from the cache');
    }
    assert.equal(lists, 1, "only the cache's own list reached etcd");
  });

  it("a continue token from etcd is served from the cache when nothing changed since its revision, else by etcd", async () => {
    const { cache, etcd } = await newCache();
    for (const n of ['a', 'b', 'c', 'd']) await cache.create(`/configmaps/ns/${n}`, cm(n));
    await until(() => encodedCount(cache) === 4);
    // The first page as etcd gives it while a cache is not ready.
    const first = await etcd.getList('/configmaps/ns', listOpts({ resourceVersion: '', predicate: { ...everything, limit: 2 } }));
    const reads = counting(etcd);
    const next = await cache.getList('/configmaps/ns', listOpts({ resourceVersion: '', predicate: { ...everything, limit: 1, continueToken: first.continueToken } }));
    assert.deepEqual(next.items.map((i) => i.metadata.name), ['c']);
    assert.equal(next.resourceVersion, first.resourceVersion);
    assert.equal(next.remainingItemCount, 1);
    assert.equal(reads.reads(), 0, 'served from memory');
    // After a change under the prefix, the state at the token's revision is etcd's to give.
    await cache.delete('/configmaps/ns/c', {});
    await until(() => encodedCount(cache) === 3);
    const again = await etcd.getList('/configmaps/ns', listOpts({ resourceVersion: '', predicate: { ...everything, limit: 2 } }));
    await cache.create('/configmaps/ns/e', cm('e'));
    await until(() => encodedCount(cache) === 4);
    const readsBefore = reads.reads();
    const rest = await cache.getList('/configmaps/ns', listOpts({ resourceVersion: '', predicate: { ...everything, continueToken: again.continueToken } }));
    assert.deepEqual(rest.items.map((i) => i.metadata.name), ['d'], 'e came after the token');
    assert.equal(reads.reads() - readsBefore, 1, 'read from etcd');
  });
});

describe('--watch-cache-sizes', () => {
  it('only 0 matters; events are off by default; --watch-cache=false turns all off', () => {
    const config = (sizes: Array<[string, number]>, enabled = true, defaultSize = 100) => ({ enabled, sizes: new Map(sizes), defaultSize });
    assert.equal(cacheEnabledFor(config([]), { group: '', resource: 'pods' }), true);
    assert.equal(cacheEnabledFor(config([]), { group: '', resource: 'events' }), false);
    assert.equal(cacheEnabledFor(config([]), { group: 'events.k8s.io', resource: 'events' }), false);
    assert.equal(cacheEnabledFor(config([['events', 100]]), { group: '', resource: 'events' }), true);
    assert.equal(cacheEnabledFor(config([['deployments.apps', 0]]), { group: 'apps', resource: 'deployments' }), false);
    assert.equal(cacheEnabledFor(config([['pods', 5]]), { group: '', resource: 'pods' }), true);
    assert.equal(cacheEnabledFor(config([], true, 0), { group: '', resource: 'pods' }), false);
    assert.equal(cacheEnabledFor(config([['pods', 1]], true, 0), { group: '', resource: 'pods' }), true);
    assert.equal(cacheEnabledFor(config([], false), { group: '', resource: 'pods' }), false);
  });

  it("the router gives one cache per key prefix and the store's view of the resource when off", () => {
    const etcd = new Etcd3Store(fx.client, { prefix: uniquePrefix('router'), codec: jsonCodec });
    const router = new WatchCacheStorage(etcd, { enabled: true, sizes: new Map([['secrets', 0]]), defaultSize: 100 });
    const a = router.forResource({ group: '', resource: 'configmaps' }, '/configmaps');
    assert.equal(router.forResource({ group: '', resource: 'configmaps' }, '/configmaps'), a);
    assert.ok(a instanceof Cacher);
    assert.equal(router.forResource({ group: '', resource: 'secrets' }, '/secrets'), etcd.forResource({ group: '', resource: 'secrets' }, '/secrets'));
    router.stop();
  });
});

function encodedCount(cache: Cacher): number {
  return (cache as unknown as { entries: Map<string, unknown> }).entries.size;
}

