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
