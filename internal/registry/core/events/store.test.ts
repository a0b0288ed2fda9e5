import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonCodec } from '../../../storage/codec.js';
import { Etcd3Store } from '../../../storage/etcd3/store.js';
import { uniquePrefix, useEtcd } from '../../../../test/support/etcd.js';
import type { GenericStore } from '../../generic/store.js';
import { deleteOptions, putBody, requestContext, statusOf } from '../shared/testing.js';
import { eventsModule } from './store.js';

const fx = useEtcd();
const ctx = requestContext('PUT', '/api/v1/namespaces/ns/events/p.1');

describe('core/v1 events store (etcd)', () => {
  it('creates on PUT, checks namespaces, ignores propagation policies on delete', async () => {
    const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('events'), codec: jsonCodec });
    const store = eventsModule({ storage, serviceClusterIPRange: '10.0.0.0/24' })[0]?.main as GenericStore;
    const body = { metadata: { name: 'p.1' }, involvedObject: { kind: 'Pod', namespace: 'ns', name: 'p' }, reason: 'Started', message: 'ok', count: 1 };
    const res = await store.update(ctx, 'p.1', putBody(body), { dryRun: false });
    assert.equal(res.created, true);
    assert.ok(await storage.get('/events/ns/p.1', { resourceVersion: '' }));
    const bad = await statusOf(store.update(ctx, 'p.2', putBody({ ...body, metadata: { name: 'p.2' }, involvedObject: { namespace: 'elsewhere' } }), { dryRun: false }));
    assert.equal(bad.code, 422);
    assert.equal(bad.details?.causes?.[0]?.field, 'involvedObject.namespace');
    // Events support no garbage collection: a foreground delete still removes at once, with no finalizer.
    const gone = await store.delete(ctx, 'p.1', deleteOptions({ propagationPolicy: 'Foreground' }));
    assert.equal(gone.deleted, true);
  });
});
