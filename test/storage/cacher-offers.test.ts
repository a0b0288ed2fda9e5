/**
 * The hand-over from the write path to the watch cache: a create or update through the cache
 * offers its entry by revision, and the etcd watch event of that write is taken from the offer
 * without decoding its value; writes the cache did not see (another server's) are decoded as
 * before, and either way the cache holds exactly what decoding etcd's value gives.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta/types.js';
import { Cacher } from '../../internal/storage/cacher/cacher.js';
import { encodeForCache } from '../../internal/storage/cacher/entries.js';
import type { WriteOffers } from '../../internal/storage/cacher/offers.js';
import { protobufCodec, type StorageCodec } from '../../internal/storage/codec.js';
import { encodedJsonOf, encodedJsonOfEvent } from '../../internal/storage/encoded.js';
import { Etcd3Store } from '../../internal/storage/etcd3/store.js';
import type { ListOptions, SelectionPredicate } from '../../internal/storage/interface.js';
import { uniquePrefix, useEtcd } from '../support/etcd.js';
import { nextEvents } from './contract.js';

const fx = useEtcd();
const made: Cacher[] = [];
after(() => {
  for (const c of made) c.stop();
});

const everything: SelectionPredicate = { everything: true, matches: () => true };
const listOpts = (extra: Partial<ListOptions> = {}): ListOptions => ({ resourceVersion: '0', resourceVersionMatch: '', predicate: everything, recursive: true, ...extra });
const cm = (name: string, data: Record<string, string> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', labels: {} }, data });

/** A cache over an etcd store (kube Protobuf) whose codec counts decodes. */
async function newCache(): Promise<{ cache: Cacher; etcd: Etcd3Store; decodes: () => number }> {
  let n = 0;
  const codec: StorageCodec = {
    encode: (o) => protobufCodec.encode(o),
    decode: (k, d) => {
      n++;
      return protobufCodec.decode(k, d);
    },
  };
  const etcd = new Etcd3Store(fx.client, { prefix: uniquePrefix('offers'), codec });
  const cache = new Cacher({ keyPrefix: '/configmaps', source: etcd });
  made.push(cache);
  await cache.waitReady();
  return { cache, etcd, decodes: () => n };
}

function offersOf(cache: Cacher): WriteOffers {
  return (cache as unknown as { offers: WriteOffers }).offers;
}

async function cachedBytes(cache: Cacher, key: string, rv: string): Promise<Buffer> {
  const got = await cache.get(key, { resourceVersion: rv });
  assert.equal(got.metadata.resourceVersion, rv);
  const bytes = encodedJsonOf(got);
  assert.ok(bytes);
  return bytes;
}

describe('write hand-over to the watch cache', () => {
  it('a create through the cache is not decoded again from its watch event, and the cache holds what etcd decodes to', async () => {
    const { cache, etcd, decodes } = await newCache();
    const w = await cache.watch('/configmaps/ns', listOpts({ resourceVersion: await cache.currentRevision() }));
    // An event that beats its write's response by more than a few event-loop turns is decoded
    // (correct, only slower): that happens to some writes, never to most.
    const rounds = 10;
    let eventDecodes = 0;
    for (let i = 0; i < rounds; i++) {
      const before = decodes();
      // Empty labels are dropped by the Protobuf codec: the returned object is the decoded stored one.
      const created = await cache.create(`/configmaps/ns/a${i}`, cm(`a${i}`, { k: 'v' }));
      assert.equal(created.metadata.labels, undefined);
      const afterCreate = decodes();
      assert.ok(afterCreate - before <= 2, 'the create decodes what it stored, once (and its event at most once)');
      const [ev] = await nextEvents(w, 1);
      eventDecodes += decodes() - before - 1;
      const fromEtcd = await etcd.get(`/configmaps/ns/a${i}`, { resourceVersion: '' });
      const expected = encodeForCache(fromEtcd);
      assert.deepEqual(await cachedBytes(cache, `/configmaps/ns/a${i}`, created.metadata.resourceVersion ?? ''), expected);
      assert.deepEqual(encodedJsonOf(created), expected, 'the response carries the same bytes');
      assert.ok(ev && ev.type === 'ADDED');
      assert.deepEqual(encodedJsonOfEvent(ev), expected);
      assert.deepEqual(ev.object, fromEtcd);
    }
    w.stop();
    assert.ok(eventDecodes <= rounds / 2, `the watch events were taken from the offers, not decoded (${eventDecodes} of ${rounds} decoded)`);
    assert.equal(offersOf(cache).size, 0, 'the offers were used and dropped');
  });

  it('an update through the cache is handed over too; a no-op update offers nothing', async () => {
    const { cache, etcd, decodes } = await newCache();
    const created = await cache.create('/configmaps/ns/u', cm('u', { k: 'v' }));
    await cachedBytes(cache, '/configmaps/ns/u', created.metadata.resourceVersion ?? '');
    const w = await cache.watch('/configmaps/ns', listOpts({ resourceVersion: created.metadata.resourceVersion ?? '' }));
    const rounds = 10;
    let eventDecodes = 0;
    let updated = created;
    for (let i = 0; i < rounds; i++) {
      const before = decodes();
      updated = await cache.guaranteedUpdate('/configmaps/ns/u', { ignoreNotFound: false, tryUpdate: (o) => ({ ...o, data: { k: `v${i + 2}` } }) });
      const [ev] = await nextEvents(w, 1);
      // As for creates: an event that beat its response by more than a few turns is decoded.
      eventDecodes += decodes() - before - 1;
      assert.ok(ev && ev.type === 'MODIFIED');
      const expected = encodeForCache(await etcd.get('/configmaps/ns/u', { resourceVersion: '' }));
      assert.deepEqual(encodedJsonOfEvent(ev), expected);
      assert.deepEqual(encodedJsonOf(updated), expected);
    }
    assert.ok(eventDecodes <= rounds / 2, `only the updates decode what they stored (${eventDecodes} of ${rounds} events decoded)`);
    const same = await cache.guaranteedUpdate('/configmaps/ns/u', { ignoreNotFound: false, tryUpdate: (o) => o });
    assert.equal(same.metadata.resourceVersion, updated.metadata.resourceVersion);
    assert.equal(offersOf(cache).size, 0);
    w.stop();
  });

  it("another server's write (straight to etcd) is decoded from the event as before", async () => {
    const { cache, etcd, decodes } = await newCache();
    const w = await cache.watch('/configmaps/ns', listOpts({ resourceVersion: await cache.currentRevision() }));
    const before = decodes();
    const created = await etcd.create('/configmaps/ns/o', cm('o', { k: 'v' }));
    const [ev] = await nextEvents(w, 1);
    w.stop();
    assert.equal(decodes() - before, 2, 'the store decodes its write and the cache decodes the event');
    assert.ok(ev && ev.type === 'ADDED');
    assert.deepEqual(encodedJsonOfEvent(ev), encodeForCache(created));
  });

  it('an offer whose stored value differs from the event is not taken', async () => {
    const { cache, etcd } = await newCache();
    const created = await cache.create('/configmaps/ns/d', cm('d', { k: 'v' }));
    await cachedBytes(cache, '/configmaps/ns/d', created.metadata.resourceVersion ?? '');
    // Offer a forged entry for the next revision, then let another writer take that revision.
    const next = Number(await cache.currentRevision()) + 1;
    offersOf(cache).offer({ key: '/configmaps/ns/d', rv: next, bytes: Buffer.from('{"forged":true}') }, Buffer.from('not what etcd holds'));
    const updated = await etcd.guaranteedUpdate('/configmaps/ns/d', { ignoreNotFound: false, tryUpdate: (o) => ({ ...o, data: { k: 'other' } }) });
    assert.equal(updated.metadata.resourceVersion, String(next));
    assert.deepEqual(await cachedBytes(cache, '/configmaps/ns/d', String(next)), encodeForCache(updated));
    assert.equal(offersOf(cache).size, 0, 'dropped once its revision passed');
  });
});
