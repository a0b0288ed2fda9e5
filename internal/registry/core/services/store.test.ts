import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonCodec } from '../../../storage/codec.js';
import { Etcd3Store } from '../../../storage/etcd3/store.js';
import { uniquePrefix, useEtcd } from '../../../../test/support/etcd.js';
import type { ResourceRegistration } from '../../registration.js';
import type { GenericStore } from '../../generic/store.js';
import { deleteOptions, patchWith, putBody, requestContext, statusOf } from '../shared/testing.js';
import { servicesModule } from './store.js';

const fx = useEtcd();
const ctx = requestContext('POST', '/api/v1/namespaces/ns/services');

describe('services store (etcd)', () => {
  it('creates on PUT under /services/specs, keeps status on update, writes it through services/status', async () => {
    const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('services'), codec: jsonCodec });
    const reg = servicesModule({ storage, serviceClusterIPRange: '10.0.0.0/24' })[0] as ResourceRegistration;
    const store = reg.main as GenericStore;
    const res = await store.update(
      ctx,
      'web',
      putBody({ metadata: { name: 'web' }, spec: { clusterIP: '10.0.0.10', ports: [{ port: 80 }] }, status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }] } } }),
      { dryRun: false },
    );
    assert.equal(res.created, true);
    assert.deepEqual(res.object.status, { loadBalancer: {} });
    assert.ok(await storage.get('/services/specs/ns/web', { resourceVersion: '' }));

    const status = await reg.subresources.status?.update?.(
      ctx,
      'web',
      patchWith((s) => {
        s.status = { loadBalancer: {}, conditions: [{ type: 'Ready', status: 'True', reason: 'Up', message: '', lastTransitionTime: '2024-01-01T00:00:00Z' }] };
        (s.spec as Record<string, unknown>).clusterIP = '10.0.0.11';
      }),
      { dryRun: false },
    );
    assert.equal((status?.object.spec as Record<string, unknown>).clusterIP, '10.0.0.10');

    const relabel = await store.update(ctx, 'web', patchWith((s) => (s.metadata.labels = { tier: 'front' })), { dryRun: false });
    // The stored status stays (a ClusterIP service's load balancer status is always empty).
    assert.equal((relabel.object.status as { conditions: unknown[] }).conditions.length, 1);

    const bad = await statusOf(store.update(ctx, 'web', patchWith((s) => ((s.spec as Record<string, unknown>).clusterIP = '10.0.0.99')), { dryRun: false }));
    assert.equal(bad.code, 422);
    assert.equal(bad.details?.causes?.[0]?.field, 'spec.clusterIPs[0]');

    const gone = await store.delete(ctx, 'web', deleteOptions());
    assert.equal(gone.deleted, true);
    assert.equal(gone.object.metadata.name, 'web');
  });
});
