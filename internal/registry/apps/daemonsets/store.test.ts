import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useEtcd } from '../../../../test/support/etcd.js';
import { createVia, setupModule, updateVia, versionOf } from '../../shared/testing.js';
import { daemonSetsModule } from './store.js';

const fx = useEtcd();
const annotation = 'deprecated.daemonset.template.generation';

describe('daemonsets store (etcd)', () => {
  it('keeps the template generation annotation: 1 on create, +1 per template change, never client-set', async () => {
    const { regs } = setupModule(fx, daemonSetsModule);
    const reg = versionOf(regs, 'v1');
    const created = await createVia(reg, {
      metadata: { name: 'agent' },
      spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
    assert.equal(created.metadata.annotations?.[annotation], '1');
    const labelled = await updateVia(reg, 'agent', (o) => ((o.metadata.labels = { x: 'y' }), (o.metadata.annotations = { [annotation]: '42' })));
    assert.equal(labelled.metadata.annotations?.[annotation], '1');
    assert.equal(labelled.metadata.generation, 1);
    const retemplated = await updateVia(reg, 'agent', (o) => ((o.spec as Record<string, any>).template.spec.containers[0].image = 'j'));
    assert.equal(retemplated.metadata.annotations?.[annotation], '2');
    assert.equal(retemplated.metadata.generation, 2);
    const strategy = await updateVia(reg, 'agent', (o) => ((o.spec as Record<string, any>).minReadySeconds = 5));
    assert.equal(strategy.metadata.annotations?.[annotation], '2');
    assert.equal(strategy.metadata.generation, 3);
  });
});
