import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonCodec } from '../../../storage/codec.js';
import { Etcd3Store } from '../../../storage/etcd3/store.js';
import { uniquePrefix, useEtcd } from '../../../../test/support/etcd.js';
import type { GenericStore } from '../../generic/store.js';
import { listOptions, patchWith, requestContext, statusOf } from '../shared/testing.js';
import { secretsModule } from './store.js';

const fx = useEtcd();
const ctx = requestContext('POST', '/api/v1/namespaces/ns/secrets');
const b64 = (s: string): string => Buffer.from(s).toString('base64');

function setup(): { store: GenericStore; storage: Etcd3Store } {
  const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('secrets'), codec: jsonCodec });
  return { store: secretsModule({ storage, serviceClusterIPRange: '10.0.0.0/24' })[0]?.main as GenericStore, storage };
}

describe('secrets store (etcd)', () => {
  it('stores stringData merged into data, never stringData itself', async () => {
    const { store, storage } = setup();
    const created = await store.create(ctx, { metadata: { name: 'a' }, data: { u: b64('admin') }, stringData: { p: 's3cr3t' } }, { dryRun: false });
    assert.deepEqual(created.data, { u: b64('admin'), p: b64('s3cr3t') });
    assert.equal(created.type, 'Opaque');
    const raw = await storage.get('/secrets/ns/a', { resourceVersion: '' });
    assert.equal(raw.stringData, undefined);
    assert.deepEqual(raw.data, { u: b64('admin'), p: b64('s3cr3t') });
    const patched = await store.update(ctx, 'a', patchWith((s) => (s.stringData = { p: 'rotated' })), { dryRun: false });
    assert.equal(patched.object.data && (patched.object.data as Record<string, string>).p, b64('rotated'));
  });

  it('refuses to change the type', async () => {
    const { store } = setup();
    await store.create(ctx, { metadata: { name: 'b' }, data: {} }, { dryRun: false });
    const status = await statusOf(store.update(ctx, 'b', patchWith((s) => (s.type = 'kubernetes.io/basic-auth')), { dryRun: false }));
    assert.equal(status.code, 422);
    assert.equal(status.details?.causes?.[0]?.field, 'type');
  });

  it('filters a list by the type field selector', async () => {
    const { store } = setup();
    await store.create(ctx, { metadata: { name: 'opaque' } }, { dryRun: false });
    await store.create(ctx, { metadata: { name: 'basic' }, type: 'kubernetes.io/basic-auth', stringData: { username: 'u' } }, { dryRun: false });
    const list = await store.list(ctx, listOptions({ field: 'type=kubernetes.io/basic-auth' }));
    assert.deepEqual(list.items.map((i) => i.metadata.name), ['basic']);
  });
});
