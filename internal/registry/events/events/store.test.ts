import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonCodec } from '../../../storage/codec.js';
import { Etcd3Store } from '../../../storage/etcd3/store.js';
import { uniquePrefix, useEtcd } from '../../../../test/support/etcd.js';
import type { ResourceRegistration } from '../../registration.js';
import type { GenericStore } from '../../generic/store.js';
import { eventsModule } from '../../core/events/store.js';
import { deleteOptions, listOptions, patchWith, requestContext, statusOf } from '../../core/shared/testing.js';
import { eventsV1Module } from './store.js';

const fx = useEtcd();
const v1ctx = requestContext('POST', '/apis/events.k8s.io/v1/namespaces/ns/events');
const corectx = requestContext('POST', '/api/v1/namespaces/ns/events');

describe('events.k8s.io/v1 events over core/v1 storage (etcd)', () => {
  it('writes core/v1 Events under /events that both groups read', async () => {
    const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('events'), codec: jsonCodec });
    const v1 = eventsV1Module({ storage, serviceClusterIPRange: '10.0.0.0/24' })[0] as ResourceRegistration;
    const core = eventsModule({ storage, serviceClusterIPRange: '10.0.0.0/24' })[0] as ResourceRegistration;
    assert.equal(v1.group, 'events.k8s.io');
    const conversion = v1.conversion;
    assert.ok(conversion);
    const v1Store = v1.main as GenericStore;
    const coreStore = core.main as GenericStore;

    const external = {
      metadata: { name: 'p.17a' },
      eventTime: '2024-05-01T10:00:00.000000Z',
      reportingController: 'example.com/ctl',
      reportingInstance: 'ctl-0',
      action: 'Sync',
      reason: 'Synced',
      type: 'Normal',
      note: 'all good',
      regarding: { kind: 'Pod', namespace: 'ns', name: 'p' },
    };
    const created = await v1Store.create(v1ctx, conversion.toInternal(external), { dryRun: false });
    assert.equal(created.message, 'all good');
    const raw = await storage.get('/events/ns/p.17a', { resourceVersion: '' });
    assert.deepEqual(raw.involvedObject, { kind: 'Pod', namespace: 'ns', name: 'p' });
    assert.equal(raw.reportingComponent, 'example.com/ctl');

    const viaCore = await coreStore.get(corectx, 'p.17a', { resourceVersion: '' });
    assert.equal(conversion.toExternal(viaCore).note, 'all good');

    const byRegarding = await v1Store.list(v1ctx, listOptions({ field: 'involvedObject.name=p,reportingComponent=example.com/ctl,source=example.com/ctl' }));
    assert.deepEqual(byRegarding.items.map((e) => e.metadata.name), ['p.17a']);

    const missing = await statusOf(v1Store.create(v1ctx, conversion.toInternal({ ...external, metadata: { name: 'bad' }, eventTime: undefined }), { dryRun: false }));
    assert.equal(missing.code, 422);
    assert.match(missing.message ?? '', /^Event\.events\.k8s\.io "bad" is invalid/);

    const changed = await statusOf(v1Store.update(v1ctx, 'p.17a', patchWith((e) => (e.message = 'rewritten')), { dryRun: false }));
    assert.equal(changed.code, 422);
    // The same change through core/v1 is allowed.
    const coreChange = await coreStore.update(corectx, 'p.17a', patchWith((e) => (e.message = 'rewritten')), { dryRun: false });
    assert.equal(coreChange.object.message, 'rewritten');

    const gone = await v1Store.delete(v1ctx, 'p.17a', deleteOptions({ propagationPolicy: 'Foreground' }));
    assert.equal(gone.deleted, true);
    assert.equal((await statusOf(coreStore.get(corectx, 'p.17a', { resourceVersion: '' }))).code, 404);
  });
});
