import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonCodec } from '../../../storage/codec.js';
import { Etcd3Store } from '../../../storage/etcd3/store.js';
import { uniquePrefix, useEtcd } from '../../../../test/support/etcd.js';
import type { GenericStore } from '../../generic/store.js';
import { putBody, requestContext, statusOf } from '../shared/testing.js';
import { configMapsModule } from './store.js';

const fx = useEtcd();
const ctx = requestContext('POST', '/api/v1/namespaces/ns/configmaps');

function setup(): { store: GenericStore; storage: Etcd3Store } {
  const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('configmaps'), codec: jsonCodec });
  const [reg] = configMapsModule({ storage, serviceClusterIPRange: '10.0.0.0/24' });
  return { store: reg?.main as GenericStore, storage };
}

describe('configmaps store (etcd)', () => {
  it('registers core/v1 configmaps and stores under /configmaps/<ns>/<name>', async () => {
    const { store, storage } = setup();
    const [reg] = configMapsModule({ storage, serviceClusterIPRange: '10.0.0.0/24' });
    assert.equal(reg?.group, '');
    assert.equal(reg?.version, 'v1');
    assert.equal(reg?.namespaced, true);
    await store.create(ctx, { metadata: { name: 'a' }, data: { k: 'v' } }, { dryRun: false });
    const raw = await storage.get('/configmaps/ns/a', { resourceVersion: '' });
    assert.deepEqual(raw.data, { k: 'v' });
  });

  it('refuses an invalid config map with 422 and its causes', async () => {
    const { store } = setup();
    const status = await statusOf(store.create(ctx, { metadata: { name: 'b' }, data: { 'no/slash': 'x' } }, { dryRun: false }));
    assert.equal(status.code, 422);
    assert.equal(status.reason, 'Invalid');
    assert.equal(status.details?.causes?.[0]?.field, 'data[no/slash]');
  });

  it('does not create on PUT and refuses data changes once immutable', async () => {
    const { store } = setup();
    const missing = await statusOf(store.update(ctx, 'ghost', putBody({ metadata: { name: 'ghost', namespace: 'ns' } }), { dryRun: false }));
    assert.equal(missing.code, 404);
    const created = await store.create(ctx, { metadata: { name: 'c' }, immutable: true, data: { k: 'v' } }, { dryRun: false });
    const changed = await statusOf(store.update(ctx, 'c', putBody({ ...created, data: { k: 'w' } }), { dryRun: false }));
    assert.equal(changed.code, 422);
    assert.match(changed.message ?? '', /data: Forbidden: field is immutable when `immutable` is set/);
    const labelled = await store.update(ctx, 'c', putBody({ ...created, metadata: { ...created.metadata, labels: { a: 'b' } } }), { dryRun: false });
    assert.deepEqual(labelled.object.metadata.labels, { a: 'b' });
  });
});
