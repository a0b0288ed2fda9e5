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

  it('keeps a copy only of what keep() names; the others reach the handlers as added, and their deletions as deleted', async () => {
    const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('informer-keep'), codec: jsonCodec });
    const store = configMapsModule({ storage, serviceClusterIPRange: '10.0.0.0/24' })[0]?.main as GenericStore;
    const ctx = requestContext('POST', '/api/v1/namespaces/ns/configmaps');
    await store.create(ctx, { metadata: { name: 'plain' }, data: { a: '1' } }, { dryRun: false });
    await store.create(ctx, { metadata: { name: 'kept', labels: { keep: 'yes' } }, data: { a: '1' } }, { dryRun: false });
    const informer = new Informer({ storage: store, resource: 'configmaps', log, keep: (o) => o.metadata.labels?.keep === 'yes' });
    const seen: string[] = [];
    informer.addHandlers({
      added: (o: KubeObject) => seen.push(`added ${o.metadata.name}`),
      updated: (o: KubeObject) => seen.push(`updated ${o.metadata.name}`),
      deleted: (o: KubeObject) => seen.push(`deleted ${o.metadata.name}`),
    });
    informer.start();
    try {
      await informer.synced;
      assert.deepEqual([...informer.list()].map((o) => o.metadata.name), ['kept']);
      assert.equal(informer.get('ns/plain'), undefined);
      await store.update(ctx, 'plain', { updatedObject: async (_c, old) => ({ ...(old as KubeObject), data: { a: '2' } }) }, { dryRun: false });
      await store.update(ctx, 'kept', { updatedObject: async (_c, old) => ({ ...(old as KubeObject), data: { a: '2' } }) }, { dryRun: false });
      // An object that comes to be kept is kept from then on; one that stops is let go.
      await store.update(ctx, 'plain', { updatedObject: async (_c, old) => ({ ...(old as KubeObject), metadata: { ...(old as KubeObject).metadata, labels: { keep: 'yes' } } }) }, { dryRun: false });
      await store.update(ctx, 'kept', { updatedObject: async (_c, old) => ({ ...(old as KubeObject), metadata: { ...(old as KubeObject).metadata, labels: {} } }) }, { dryRun: false });
      await store.delete(ctx, 'kept', { dryRun: false });
      await until(() => seen.length === 7);
      assert.deepEqual(seen.sort(), ['added kept', 'added plain', 'added plain', 'added plain', 'deleted kept', 'updated kept', 'updated kept'].sort());
      assert.deepEqual([...informer.list()].map((o) => o.metadata.name), ['plain']);
    } finally {
      informer.stop();
    }
  });
});
