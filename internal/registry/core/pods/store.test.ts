import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonCodec } from '../../../storage/codec.js';
import { Etcd3Store } from '../../../storage/etcd3/store.js';
import { uniquePrefix, useEtcd } from '../../../../test/support/etcd.js';
import type { ResourceRegistration } from '../../registration.js';
import type { GenericStore } from '../../generic/store.js';
import { deleteOptions, listOptions, patchWith, requestContext, statusOf } from '../shared/testing.js';
import { podsModule } from './store.js';

const fx = useEtcd();
const ctx = requestContext('POST', '/api/v1/namespaces/ns/pods');

function setup(): { reg: ResourceRegistration; store: GenericStore; storage: Etcd3Store } {
  const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('pods'), codec: jsonCodec });
  const reg = podsModule({ storage, serviceClusterIPRange: '10.0.0.0/24' })[0] as ResourceRegistration;
  return { reg, store: reg.main as GenericStore, storage };
}

const newPod = (name: string, spec: Record<string, unknown> = {}): { metadata: { name: string }; spec: Record<string, unknown> } => ({
  metadata: { name },
  spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
});

describe('pods store (etcd)', () => {
  it('creates with a Pending status and generation 1 under /pods/<ns>/<name>', async () => {
    const { store, storage } = setup();
    const created = await store.create(ctx, { ...newPod('a'), status: { phase: 'Running' } }, { dryRun: false });
    assert.deepEqual(created.status, { phase: 'Pending', qosClass: 'BestEffort' });
    assert.equal(created.metadata.generation, 1);
    assert.ok(await storage.get('/pods/ns/a', { resourceVersion: '' }));
  });

  it('ignores status on update, bumps generation on spec change, refuses immutable spec changes', async () => {
    const { store } = setup();
    await store.create(ctx, newPod('b'), { dryRun: false });
    const img = await store.update(
      ctx,
      'b',
      patchWith((p) => {
        (p.spec as { containers: Array<{ image: string }> }).containers[0]!.image = 'nginx:2';
        p.status = { phase: 'Succeeded' };
      }),
      { dryRun: false },
    );
    assert.equal((img.object.status as { phase: string }).phase, 'Pending');
    assert.equal(img.object.metadata.generation, 2);
    const bad = await statusOf(store.update(ctx, 'b', patchWith((p) => ((p.spec as Record<string, unknown>).restartPolicy = 'Never')), { dryRun: false }));
    assert.equal(bad.code, 422);
    assert.equal(bad.details?.causes?.[0]?.field, 'spec');
    assert.match(bad.message ?? '', /pod updates may not change fields other than/);
  });

  it('writes status through pods/status without touching spec', async () => {
    const { reg, store } = setup();
    await store.create(ctx, newPod('c', { nodeName: 'n1' }), { dryRun: false });
    const status = reg.subresources.status;
    assert.ok(status?.update);
    const res = await status.update(
      ctx,
      'c',
      patchWith((p) => {
        p.status = { phase: 'Running', podIP: '10.1.0.7', podIPs: [{ ip: '10.1.0.7' }] };
        (p.spec as Record<string, unknown>).nodeName = 'n2';
      }),
      { dryRun: false },
    );
    assert.equal((res.object.spec as { nodeName: string }).nodeName, 'n1');
    assert.deepEqual(res.object.status, { phase: 'Running', podIP: '10.1.0.7', podIPs: [{ ip: '10.1.0.7' }], qosClass: 'BestEffort' });
    assert.equal(res.object.metadata.generation, 1);
    const byPhase = await store.list(ctx, listOptions({ field: 'status.phase=Running,spec.nodeName=n1' }));
    assert.deepEqual(byPhase.items.map((p) => p.metadata.name), ['c']);
  });

  it('deletes a scheduled pod gracefully and an unscheduled one at once', async () => {
    const { store } = setup();
    await store.create(ctx, newPod('bound', { nodeName: 'n1', terminationGracePeriodSeconds: 20 }), { dryRun: false });
    await store.create(ctx, newPod('loose'), { dryRun: false });
    const bound = await store.delete(ctx, 'bound', deleteOptions());
    assert.equal(bound.deleted, false);
    assert.ok(bound.object.metadata.deletionTimestamp);
    assert.equal(bound.object.metadata.deletionGracePeriodSeconds, 20);
    const still = await store.get(ctx, 'bound', { resourceVersion: '' });
    assert.ok(still.metadata.deletionTimestamp);
    const loose = await store.delete(ctx, 'loose', deleteOptions());
    assert.equal(loose.deleted, true);
    assert.equal((await statusOf(store.get(ctx, 'loose', { resourceVersion: '' }))).code, 404);
    // A second delete may only shorten the grace period.
    const shorter = await store.delete(ctx, 'bound', deleteOptions({ gracePeriodSeconds: 5 }));
    assert.equal(shorter.object.metadata.deletionGracePeriodSeconds, 5);
    const longer = await store.delete(ctx, 'bound', deleteOptions({ gracePeriodSeconds: 60 }));
    assert.equal(longer.deleted, false);
    assert.equal(longer.object.metadata.deletionGracePeriodSeconds, 5, 'a longer grace period changes nothing');
    // --grace-period=0 --force: gone at once.
    const now = await store.delete(ctx, 'bound', deleteOptions({ gracePeriodSeconds: 0 }));
    assert.equal(now.deleted, true);
    assert.equal((await statusOf(store.get(ctx, 'bound', { resourceVersion: '' }))).code, 404);
  });
});
