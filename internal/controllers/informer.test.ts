import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta/types.js';
import { uniquePrefix, useEtcd } from '../../test/support/etcd.js';
import { createLogger } from '../observability/logging.js';
import { configMapsModule } from '../registry/core/configmaps/store.js';
import type { GenericStore } from '../registry/generic/store.js';
import { requestContext } from '../registry/core/shared/testing.js';
import { jsonCodec } from '../storage/codec.js';
import { Etcd3Store } from '../storage/etcd3/store.js';
import { Informer } from './informer.js';

const fx = useEtcd();
const log = createLogger(0, true);

async function until(pred: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('informer', () => {
  it('loads the current objects, then follows creates, updates and deletes through the handlers', async () => {
    const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('informer'), codec: jsonCodec });
    const store = configMapsModule({ storage, serviceClusterIPRange: '10.0.0.0/24' })[0]?.main as GenericStore;
    const ctx = requestContext('POST', '/api/v1/namespaces/ns/configmaps');
    await store.create(ctx, { metadata: { name: 'before' }, data: { a: '1' } }, { dryRun: false });
    const informer = new Informer({ storage: store, resource: 'configmaps', log });
    const seen: string[] = [];
    informer.addHandlers({
      added: (o: KubeObject) => seen.push(`added ${o.metadata.name}`),
      updated: (o: KubeObject, old: KubeObject) => seen.push(`updated ${o.metadata.name} ${(old.data as Record<string, string>).a}->${(o.data as Record<string, string>).a}`),
      deleted: (o: KubeObject) => seen.push(`deleted ${o.metadata.name}`),
    });
    informer.start();
    try {
      await informer.synced;
      assert.equal(informer.get('ns/before')?.metadata.name, 'before');
      await store.create(ctx, { metadata: { name: 'after' }, data: { a: '1' } }, { dryRun: false });
      await store.update(ctx, 'after', { updatedObject: async (_c, old) => ({ ...(old as KubeObject), data: { a: '2' } }) }, { dryRun: false });
      await store.delete(ctx, 'before', { dryRun: false });
      await until(() => seen.length === 4);
      assert.deepEqual(seen, ['added before', 'added after', 'updated after 1->2', 'deleted before']);
      assert.deepEqual([...informer.list()].map((o) => o.metadata.name), ['after']);
    } finally {
      informer.stop();
    }
  });
});
