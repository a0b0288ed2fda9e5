import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonCodec } from '../../../storage/codec.js';
import { Etcd3Store } from '../../../storage/etcd3/store.js';
import { uniquePrefix, useEtcd } from '../../../../test/support/etcd.js';
import type { GenericStore } from '../../generic/store.js';
import { putBody, requestContext, statusOf } from '../../core/shared/testing.js';
import { leasesModule } from './store.js';

const fx = useEtcd();
const ctx = requestContext('PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/ctl');

describe('leases store (etcd)', () => {
  it('creates on PUT under /leases and requires the resourceVersion on later updates', async () => {
    const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('leases'), codec: jsonCodec });
    const store = leasesModule({ storage, serviceClusterIPRange: '10.0.0.0/24' })[0]?.main as GenericStore;
    const body = { metadata: { name: 'ctl' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15 } };
    const first = await store.update(ctx, 'ctl', putBody(body), { dryRun: false });
    assert.equal(first.created, true);
    assert.ok(await storage.get('/leases/kube-system/ctl', { resourceVersion: '' }));
    const blind = await statusOf(store.update(ctx, 'ctl', putBody({ ...body, spec: { holderIdentity: 'b' } }), { dryRun: false }));
    assert.equal(blind.code, 422);
    assert.equal(blind.details?.causes?.[0]?.field, 'metadata.resourceVersion');
    const stale = await statusOf(
      store.update(ctx, 'ctl', putBody({ ...body, metadata: { name: 'ctl', resourceVersion: '1' }, spec: { holderIdentity: 'b' } }), { dryRun: false }),
    );
    assert.equal(stale.code, 409);
    const taken = await store.update(ctx, 'ctl', putBody({ ...first.object, spec: { holderIdentity: 'b', leaseDurationSeconds: 15 } }), { dryRun: false });
    assert.equal((taken.object.spec as Record<string, unknown>).holderIdentity, 'b');
  });
});
