import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonCodec } from '../../../storage/codec.js';
import { Etcd3Store } from '../../../storage/etcd3/store.js';
import { uniquePrefix, useEtcd } from '../../../../test/support/etcd.js';
import type { GenericStore } from '../../generic/store.js';
import { putBody, requestContext } from '../shared/testing.js';
import { endpointsModule } from './store.js';

const fx = useEtcd();
const ctx = requestContext('PUT', '/api/v1/namespaces/ns/endpoints/web');

describe('endpoints store (etcd)', () => {
  it('creates on PUT under /services/endpoints and updates unconditionally', async () => {
    const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('endpoints'), codec: jsonCodec });
    const store = endpointsModule({ storage, serviceClusterIPRange: '10.0.0.0/24' })[0]?.main as GenericStore;
    const body = { metadata: { name: 'web' }, subsets: [{ addresses: [{ ip: '10.1.0.4' }], ports: [{ port: 8080 }] }] };
    const first = await store.update(ctx, 'web', putBody(body), { dryRun: false });
    assert.equal(first.created, true);
    assert.ok(await storage.get('/services/endpoints/ns/web', { resourceVersion: '' }));
    const second = await store.update(ctx, 'web', putBody({ ...body, subsets: [{ addresses: [{ ip: '10.1.0.5' }] }] }), { dryRun: false });
    assert.equal(second.created, false);
    assert.deepEqual(second.object.subsets, [{ addresses: [{ ip: '10.1.0.5' }] }]);
  });
});
