/**
 * A watch that etcd cancels because its start revision was compacted (a compaction landing between
 * the store's revision check and the watch's creation, as `make soak` hit) must end with Expired
 * and leave every other watch on the same etcd client running. Cancelling such a watch again made
 * etcd answer for a watch id the etcd3 library had already dropped; the library threw inside the
 * watch stream's data handler and the stream stopped being read, freezing every watch cache of
 * the server.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { KubeObject } from '../../api/meta/types.js';
import { jsonCodec } from '../../internal/storage/codec.js';
import { isStorageError } from '../../internal/storage/errors.js';
import type { ListOptions } from '../../internal/storage/interface.js';
import { Etcd3Store } from '../../internal/storage/etcd3/store.js';
import { startWatch } from '../../internal/storage/etcd3/watcher.js';
import { uniquePrefix, useEtcd } from '../support/etcd.js';
import { nextEvents } from './contract.js';

const fx = useEtcd();

function watchFrom(resourceVersion: string): ListOptions {
  return { resourceVersion, resourceVersionMatch: '', recursive: true, predicate: { everything: true, matches: () => true } };
}

function setV(store: Etcd3Store, v: string): Promise<KubeObject> {
  return store.guaranteedUpdate('/configmaps/ns/a', { ignoreNotFound: false, tryUpdate: (cur) => ({ ...cur, data: { v } }) });
}

function cm(name: string, v: string): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data: { v } } as KubeObject;
}

it('a watch cancelled by etcd for compaction ends Expired and other watches on the client keep their events', async () => {
  const prefix = uniquePrefix('compacted-watch');
  const store = new Etcd3Store(fx.client, { prefix, codec: jsonCodec });
  const first = await store.create('/configmaps/ns/a', cm('a', '0'));
  for (let i = 1; i <= 3; i++) await setV(store, String(i));
  const now = await store.currentRevision();
  await fx.client.kv.compact({ revision: now, physical: true });

  const live = await store.watch('/configmaps/', watchFrom(now));
  try {
    const full = `${prefix}/configmaps/`;
    // etcd confirms the watch's creation and then cancels it: the watch either fails to start or
    // ends at once with an ERROR event, Expired either way.
    const expired = (err: unknown): boolean => isStorageError(err) && err.code === 'Expired';
    const compacted = await startWatch({
      client: fx.client,
      store,
      key: '/configmaps/',
      fullKey: full,
      keyPrefix: full,
      opts: watchFrom(first.metadata.resourceVersion as string),
      decode: (kv) => JSON.parse(kv.value.toString()) as KubeObject,
      relativeKey: (kv) => kv.key.toString().slice(prefix.length),
      // The revision check passed before the compaction: etcd itself refuses the watch.
      checkRevisionAvailable: async () => undefined,
    }).catch((err: unknown) => {
      assert.ok(expired(err), `startWatch failed with ${String(err)}, not Expired`);
      return undefined;
    });
    if (compacted) {
      const [ev] = await nextEvents(compacted, 1, 5000);
      assert.equal(ev?.type, 'ERROR', `the compacted watch's first event: ${JSON.stringify(ev)}`);
      assert.ok(expired((ev as { error?: unknown }).error));
      // What a watch cache does with an ended watch: stop it (again).
      compacted.stop();
    }
    for (let round = 0; round < 3; round++) {
      await setV(store, `after-${round}`);
      const events = await nextEvents(live, 1, 5000);
      assert.equal(events.length, 1, `round ${round}: the live watch got no event within 5 s of a write after the compacted watch was refused`);
      assert.equal(events[0]?.type, 'MODIFIED');
    }
  } finally {
    live.stop();
    await store.closeWatches();
  }
});
