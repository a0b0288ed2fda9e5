import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonCodec } from '../../../storage/codec.js';
import { Etcd3Store } from '../../../storage/etcd3/store.js';
import { uniquePrefix, useEtcd } from '../../../../test/support/etcd.js';
import type { ResourceRegistration } from '../../registration.js';
import type { GenericStore } from '../../generic/store.js';
import { listOptions, patchWith, requestContext } from '../shared/testing.js';
import { nodesModule } from './store.js';

const fx = useEtcd();
const ctx = requestContext('POST', '/api/v1/nodes');

describe('nodes store (etcd)', () => {
  it('registers with status under /minions, keeps status on update, writes it through nodes/status', async () => {
    const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('nodes'), codec: jsonCodec });
    const reg = nodesModule({ storage, serviceClusterIPRange: '10.0.0.0/24' })[0] as ResourceRegistration;
    const store = reg.main as GenericStore;
    assert.equal(reg.namespaced, false);
    const created = await store.create(ctx, { metadata: { name: 'worker-1.example' }, spec: {}, status: { nodeInfo: { kubeletVersion: 'v1.33.0' } } }, { dryRun: false });
    assert.deepEqual(created.status, { nodeInfo: { kubeletVersion: 'v1.33.0' } });
    assert.equal(created.metadata.namespace, undefined);
    assert.ok(await storage.get('/minions/worker-1.example', { resourceVersion: '' }));

    const cordoned = await store.update(ctx, 'worker-1.example', patchWith((n) => {
      (n.spec as Record<string, unknown>).unschedulable = true;
      n.status = {};
    }), { dryRun: false });
    assert.deepEqual(cordoned.object.status, { nodeInfo: { kubeletVersion: 'v1.33.0' } });

    const ready = await reg.subresources.status?.update?.(ctx, 'worker-1.example', patchWith((n) => {
      n.status = { conditions: [{ type: 'Ready', status: 'True' }] };
      (n.spec as Record<string, unknown>).unschedulable = false;
    }), { dryRun: false });
    assert.equal((ready?.object.spec as Record<string, unknown>).unschedulable, true);
    assert.deepEqual(ready?.object.status, { conditions: [{ type: 'Ready', status: 'True' }] });

    await store.create(ctx, { metadata: { name: 'worker-2' }, spec: {} }, { dryRun: false });
    const unschedulable = await store.list(ctx, listOptions({ field: 'spec.unschedulable=true' }));
    assert.deepEqual(unschedulable.items.map((n) => n.metadata.name), ['worker-1.example']);
  });
});
