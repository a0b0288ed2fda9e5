/**
 * Runs the storage contract against the etcd3 store on a real etcd, plus the compactor.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonCodec } from '../../internal/storage/codec.js';
import { startCompactor } from '../../internal/storage/etcd3/compactor.js';
import { Etcd3Store } from '../../internal/storage/etcd3/store.js';
import { uniquePrefix, useEtcd } from '../support/etcd.js';
import { storageContract } from './contract.js';

const fx = useEtcd();

storageContract('etcd3', {
  newStore: () => new Etcd3Store(fx.client, { prefix: uniquePrefix('contract'), codec: jsonCodec }),
  newStoreWithBookmarks: (ms) => new Etcd3Store(fx.client, { prefix: uniquePrefix('bookmarks'), codec: jsonCodec, bookmarkIntervalMs: ms }),
  compact: async (store) => {
    const rev = await store.currentRevision();
    await fx.client.kv.compact({ revision: rev, physical: true });
  },
});

describe('etcd3 compactor', () => {
  it('compacts to the revision seen one round earlier, and coordinates through compact_rev_key', async () => {
    const store = new Etcd3Store(fx.client, { prefix: uniquePrefix('compactor'), codec: jsonCodec });
    const logs: string[] = [];
    const compactor = startCompactor(fx.client, 0, (m) => logs.push(m));
    try {
      assert.equal(await compactor.runOnce(), 0n, 'the first round only records a revision');
      const a = await store.create('/configmaps/ns/a', { metadata: { name: 'a' } });
      const second = await compactor.runOnce();
      assert.ok(second > 0n && second < BigInt(a.metadata.resourceVersion ?? '0'), 'the second round compacts what the first saw');
      // A revision older than what was compacted is gone; the object's own revision is still readable.
      await assert.rejects(fx.client.kv.range({ key: Buffer.from('x'), revision: (second - 1n).toString() }), /compacted/);
      await fx.client.kv.range({ key: Buffer.from('x'), revision: a.metadata.resourceVersion ?? '' });
      // A second compactor (another API server) loses the first race and then takes turns.
      const other = startCompactor(fx.client, 0, (m) => logs.push(m));
      assert.equal(await other.runOnce(), 0n);
      other.stop();
      assert.deepEqual(logs, []);
    } finally {
      compactor.stop();
    }
  });

  it('runs on its interval', async () => {
    const store = new Etcd3Store(fx.client, { prefix: uniquePrefix('interval'), codec: jsonCodec });
    const a = await store.create('/configmaps/ns/a', { metadata: { name: 'a' } });
    const compactor = startCompactor(fx.client, 100, () => undefined);
    try {
      await store.create('/configmaps/ns/b', { metadata: { name: 'b' } });
      const deadline = Date.now() + 5000;
      let compacted = false;
      while (!compacted && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        compacted = await fx.client.kv
          .range({ key: Buffer.from('x'), revision: a.metadata.resourceVersion ?? '' })
          .then(() => false, (err: Error) => /compacted/.test(err.message));
      }
      assert.ok(compacted, 'a revision older than an interval was compacted');
    } finally {
      compactor.stop();
    }
  });
});

describe('etcd3 guaranteedUpdate from a cached copy', () => {
  it('an update that refuses a stale cached copy is tried again on the stored object', async () => {
    const store = new Etcd3Store(fx.client, { prefix: uniquePrefix('stale'), codec: jsonCodec });
    const v1 = await store.create('/configmaps/ns/a', { metadata: { name: 'a' }, data: { v: '1' } } as never);
    const v2 = await store.guaranteedUpdate('/configmaps/ns/a', { tryUpdate: async (o: object) => ({ ...o, data: { v: '2' } }) } as never);
    // The client read v2; the cache still has v1. The update checks the client's resourceVersion.
    const seen: string[] = [];
    const v3 = await store.guaranteedUpdate('/configmaps/ns/a', {
      cachedExisting: v1,
      tryUpdate: async (o: { metadata: { resourceVersion?: string } }) => {
        seen.push(o.metadata.resourceVersion ?? '');
        if (o.metadata.resourceVersion !== v2.metadata.resourceVersion) throw new Error('the object has been modified');
        return { ...o, data: { v: '3' } };
      },
    } as never);
    assert.deepEqual(seen, [v1.metadata.resourceVersion, v2.metadata.resourceVersion]);
    assert.equal((v3 as unknown as { data: { v: string } }).data.v, '3');
    // Without a cached copy the refusal is the answer.
    await assert.rejects(store.guaranteedUpdate('/configmaps/ns/a', { tryUpdate: async () => { throw new Error('refused'); } } as never), /refused/);
  });
});
