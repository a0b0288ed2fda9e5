import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useEtcd } from '../../../../test/support/etcd.js';
import { patchWith, statusOf } from '../../core/shared/testing.js';
import { contextFor, createVia, getVia, setupModule, updateVia, versionOf } from '../../shared/testing.js';
import { statefulSetsModule } from './store.js';

const fx = useEtcd();
const web = {
  metadata: { name: 'web' },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
};

describe('statefulsets store (etcd)', () => {
  it('writes status only through statefulsets/status and keeps it on spec updates', async () => {
    const { regs } = setupModule(fx, statefulSetsModule);
    const reg = versionOf(regs, 'v1');
    const created = await createVia(reg, { ...structuredClone(web), status: { replicas: 9 } });
    assert.deepEqual(created.status, { availableReplicas: 0, replicas: 0 });
    const st = await updateVia(reg, 'web', (o) => ((o.status = { replicas: 2, readyReplicas: 2, availableReplicas: 2 }), ((o.spec as Record<string, unknown>).replicas = 7)), { subresource: 'status' });
    assert.equal((st.spec as Record<string, unknown>).replicas, 2);
    assert.deepEqual(st.status, { replicas: 2, readyReplicas: 2, availableReplicas: 2 });
    assert.equal(st.metadata.generation, 1);
    const spec = await updateVia(reg, 'web', (o) => ((o.status = {}), ((o.spec as Record<string, unknown>).replicas = 3)));
    assert.deepEqual(spec.status, { replicas: 2, readyReplicas: 2, availableReplicas: 2 });
    assert.equal(spec.metadata.generation, 2);
    const bad = await statusOf(updateVia(reg, 'web', (o) => (o.status = { replicas: 1, readyReplicas: 3 }), { subresource: 'status' }));
    assert.equal(bad.message, 'StatefulSet.apps "web" is invalid: status.readyReplicas: Invalid value: 3: cannot be greater than status.replicas');
  });

  it('reads and writes statefulsets/scale', async () => {
    const { regs } = setupModule(fx, statefulSetsModule);
    const reg = versionOf(regs, 'v1');
    await createVia(reg, structuredClone(web));
    const scale = reg.subresources.scale;
    assert.ok(scale?.get && scale.update);
    const ctx = contextFor(reg, 'GET');
    const current = await scale.get(ctx, 'web', { resourceVersion: '' });
    assert.deepEqual({ kind: current.kind, spec: current.spec, status: current.status }, { kind: 'Scale', spec: { replicas: 2 }, status: { replicas: 0, selector: 'app=web' } });
    await scale.update(ctx, 'web', patchWith((s) => ((s.spec as Record<string, unknown>).replicas = 4)), { dryRun: false });
    const after = await getVia(reg, 'web');
    assert.equal((after.spec as Record<string, unknown>).replicas, 4);
    assert.equal(after.metadata.generation, 2);
  });

  it('keeps the selector fixed', async () => {
    const { regs } = setupModule(fx, statefulSetsModule);
    const reg = versionOf(regs, 'v1');
    await createVia(reg, structuredClone(web));
    const moved = await statusOf(updateVia(reg, 'web', (o) => ((o.spec as Record<string, any>).selector = { matchLabels: { app: 'web', tier: 'x' } })));
    assert.equal(moved.code, 422);
    assert.ok(moved.details?.causes?.some((c) => c.field === 'spec' && c.reason === 'FieldValueForbidden'));
  });
});
