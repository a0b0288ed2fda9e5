import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useEtcd } from '../../../../test/support/etcd.js';
import { deleteOptions, patchWith } from '../shared/testing.js';
import { contextFor, createVia, getVia, setupModule, versionOf } from '../../shared/testing.js';
import { replicationControllersModule } from './store.js';

const fx = useEtcd();

describe('replicationcontrollers store (etcd)', () => {
  it('renders the selector map in Scale.status.selector and scales through it', async () => {
    const { regs, storage } = setupModule(fx, replicationControllersModule);
    const reg = versionOf(regs, 'v1');
    await createVia(reg, {
      metadata: { name: 'rc1' },
      spec: { replicas: 3, selector: { tier: 'web', app: 'shop' }, template: { metadata: { labels: { app: 'shop', tier: 'web' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
    assert.ok(await storage.get('/controllers/ns/rc1', { resourceVersion: '' }));
    const scale = reg.subresources.scale;
    assert.ok(scale?.get && scale.update);
    const ctx = contextFor(reg, 'GET');
    const current = await scale.get(ctx, 'rc1', { resourceVersion: '' });
    assert.equal(current.apiVersion, 'autoscaling/v1');
    assert.deepEqual(current.status, { replicas: 0, selector: 'app=shop,tier=web' });
    await scale.update(ctx, 'rc1', patchWith((s) => ((s.spec as Record<string, unknown>).replicas = 0)), { dryRun: false });
    assert.equal(((await getVia(reg, 'rc1')).spec as Record<string, unknown>).replicas, 0);
  });

  it('selects by status.replicas and orphans pods by default', async () => {
    const { regs } = setupModule(fx, replicationControllersModule);
    const reg = versionOf(regs, 'v1');
    assert.deepEqual(reg.selectableFields.extra, ['status.replicas']);
    assert.equal(reg.selectableFields.style, 'core');
    await createVia(reg, { metadata: { name: 'rc2' }, spec: { template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } });
    const res = await reg.main.delete?.(contextFor(reg, 'DELETE'), 'rc2', deleteOptions());
    assert.deepEqual(res?.object.metadata.finalizers, ['orphan']);
  });
});
