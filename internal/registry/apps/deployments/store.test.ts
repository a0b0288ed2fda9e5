import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonCodec } from '../../../storage/codec.js';
import { Etcd3Store } from '../../../storage/etcd3/store.js';
import { uniquePrefix, useEtcd } from '../../../../test/support/etcd.js';
import type { ResourceRegistration } from '../../registration.js';
import type { GenericStore } from '../../generic/store.js';
import { deleteOptions, patchWith, putBody, requestContext, statusOf } from '../../core/shared/testing.js';
import { deploymentsModule } from './store.js';

const fx = useEtcd();
const ctx = requestContext('POST', '/apis/apps/v1/namespaces/ns/deployments');

const web = {
  metadata: { name: 'web' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
  },
  status: { replicas: 7 },
};

function setup(): { reg: ResourceRegistration; store: GenericStore; storage: Etcd3Store } {
  const storage = new Etcd3Store(fx.client, { prefix: uniquePrefix('deployments'), codec: jsonCodec });
  const reg = deploymentsModule({ storage, serviceClusterIPRange: '10.0.0.0/24' })[0] as ResourceRegistration;
  return { reg, store: reg.main as GenericStore, storage };
}

describe('deployments store (etcd)', () => {
  it('creates with empty status and generation 1, bumps generation on spec changes only', async () => {
    const { store, storage } = setup();
    const created = await store.create(ctx, structuredClone(web), { dryRun: false });
    assert.deepEqual(created.status, {});
    assert.equal(created.metadata.generation, 1);
    assert.ok(await storage.get('/deployments/ns/web', { resourceVersion: '' }));
    const relabelled = await store.update(ctx, 'web', patchWith((d) => (d.metadata.labels = { team: 'a' })), { dryRun: false });
    assert.equal(relabelled.object.metadata.generation, 1);
    const scaled = await store.update(ctx, 'web', patchWith((d) => ((d.spec as Record<string, unknown>).replicas = 3)), { dryRun: false });
    assert.equal(scaled.object.metadata.generation, 2);
    const annotated = await store.update(ctx, 'web', patchWith((d) => (d.metadata.annotations = { 'kubernetes.io/change-cause': 'x' })), { dryRun: false });
    assert.equal(annotated.object.metadata.generation, 3);
  });

  it('refuses a selector change and a template that does not match', async () => {
    const { store } = setup();
    const created = await store.create(ctx, structuredClone(web), { dryRun: false });
    const moved = await statusOf(
      store.update(ctx, 'web', putBody({ ...created, spec: { ...(created.spec as object), selector: { matchLabels: { app: 'web', v: '2' } } } }), { dryRun: false }),
    );
    assert.equal(moved.code, 422);
    const fields = moved.details?.causes?.map((c) => c.field);
    assert.ok(fields?.includes('spec.selector'));
    assert.ok(fields?.includes('spec.template.metadata.labels'));
    const bad = await statusOf(store.create(ctx, { ...structuredClone(web), metadata: { name: 'bad' }, spec: { ...web.spec, selector: { matchLabels: { app: 'other' } } } }, { dryRun: false }));
    assert.match(bad.message ?? '', /^Deployment\.apps "bad" is invalid: spec\.template\.metadata\.labels: Invalid value: .*`selector` does not match template `labels`/);
  });

  it('writes status only through deployments/status', async () => {
    const { reg, store } = setup();
    await store.create(ctx, structuredClone(web), { dryRun: false });
    const res = await reg.subresources.status?.update?.(
      ctx,
      'web',
      patchWith((d) => {
        d.status = { observedGeneration: 1, replicas: 2, readyReplicas: 2, availableReplicas: 2, updatedReplicas: 2 };
        (d.spec as Record<string, unknown>).replicas = 10;
      }),
      { dryRun: false },
    );
    assert.equal((res?.object.spec as Record<string, unknown>).replicas, 2);
    assert.equal((res?.object.status as Record<string, unknown>).readyReplicas, 2);
    assert.equal(res?.object.metadata.generation, 1);
    const specOnly = await store.update(ctx, 'web', patchWith((d) => (d.status = {})), { dryRun: false });
    assert.equal((specOnly.object.status as Record<string, unknown>).readyReplicas, 2);
  });

  it('reads and writes the scale subresource', async () => {
    const { reg, store } = setup();
    await store.create(ctx, structuredClone(web), { dryRun: false });
    const scale = reg.subresources.scale;
    assert.ok(scale?.get && scale.update);
    const current = await scale.get(ctx, 'web', { resourceVersion: '' });
    assert.equal(current.kind, 'Scale');
    assert.equal(current.apiVersion, 'autoscaling/v1');
    assert.deepEqual(current.spec, { replicas: 2 });
    assert.deepEqual(current.status, { replicas: 0, selector: 'app=web' });
    const res = await scale.update(ctx, 'web', patchWith((s) => ((s.spec as Record<string, unknown>).replicas = 5)), { dryRun: false });
    assert.deepEqual(res.object.spec, { replicas: 5 });
    const after = await store.get(ctx, 'web', { resourceVersion: '' });
    assert.equal((after.spec as Record<string, unknown>).replicas, 5);
    assert.equal(after.metadata.generation, 2);
    const negative = await statusOf(scale.update(ctx, 'web', patchWith((s) => ((s.spec as Record<string, unknown>).replicas = -1)), { dryRun: false }));
    assert.equal(negative.code, 422);
  });

  it('marks a deployment for foreground deletion of its dependents by request', async () => {
    const { store } = setup();
    await store.create(ctx, structuredClone(web), { dryRun: false });
    const res = await store.delete(ctx, 'web', deleteOptions({ propagationPolicy: 'Foreground' }));
    assert.equal(res.deleted, false);
    assert.deepEqual(res.object.metadata.finalizers, ['foregroundDeletion']);
    const plain = await store.create(ctx, { ...structuredClone(web), metadata: { name: 'plain' } }, { dryRun: false });
    assert.ok(plain);
    assert.equal((await store.delete(ctx, 'plain', deleteOptions())).deleted, true);
  });
});
