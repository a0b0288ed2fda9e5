import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonCodec } from '../../../storage/codec.js';
import { Etcd3Store } from '../../../storage/etcd3/store.js';
import { uniquePrefix, useEtcd } from '../../../../test/support/etcd.js';
import type { GenericStore } from '../../generic/store.js';
import { deleteOptions, putBody, requestContext } from '../shared/testing.js';
import { serviceAccountsModule } from './store.js';

const fx = useEtcd();
const ctx = requestContext('PUT', '/api/v1/namespaces/ns/serviceaccounts/robot');

describe('serviceaccounts store (etcd)', () => {
  it('creates on PUT, stores under /serviceaccounts and deletes at once', async () => {
    const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('sa'), codec: jsonCodec });
    const store = serviceAccountsModule({ storage, serviceClusterIPRange: '10.0.0.0/24' })[0]?.main as GenericStore;
    const res = await store.update(ctx, 'robot', putBody({ metadata: { name: 'robot' }, secrets: [{ name: 't', uid: 'u' }] }), { dryRun: false });
    assert.equal(res.created, true);
    assert.deepEqual(res.object.secrets, [{ name: 't' }]);
    const raw = await storage.get('/serviceaccounts/ns/robot', { resourceVersion: '' });
    assert.equal(raw.metadata.uid, res.object.metadata.uid);
    const gone = await store.delete(ctx, 'robot', deleteOptions());
    assert.equal(gone.deleted, true);
    assert.equal(gone.object.metadata.name, 'robot');
  });
});
