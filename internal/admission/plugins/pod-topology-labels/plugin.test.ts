import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attrsFor, FakeInformer, pod, testContext } from '../pod-shared/fakes.js';
import { PodTopologyLabels } from './plugin.js';

const nodes = new FakeInformer([{ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels: { 'topology.kubernetes.io/zone': 'z1', 'topology.kubernetes.io/region': 'r1', other: 'x' } } }]);
const binding = () => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p', namespace: 'ns', labels: { 'topology.kubernetes.io/zone': 'mine' } }, target: { kind: 'Node', name: 'n1' } });

describe('PodTopologyLabels', () => {
  it('copies the zone and region labels to a binding or a bound pod, replacing values already there', async () => {
    const p = new PodTopologyLabels(() => nodes.asInformer(), true);
    const b = binding();
    await p.admit(attrsFor('CREATE', b, { subresource: 'binding', kind: 'Binding' }), testContext);
    assert.deepEqual(b.metadata.labels, { 'topology.kubernetes.io/zone': 'z1', 'topology.kubernetes.io/region': 'r1' });
    const bound = pod('q', { nodeName: 'n1', containers: [] });
    await p.admit(attrsFor('CREATE', bound), testContext);
    assert.deepEqual(bound.metadata.labels, { 'topology.kubernetes.io/zone': 'z1', 'topology.kubernetes.io/region': 'r1' });
  });

  it('does nothing with its feature gate off (kube 1.33 and Capstan default)', async () => {
    const p = new PodTopologyLabels(() => nodes.asInformer(), false);
    assert.equal(p.handles('CREATE'), false);
    const b = binding();
    await p.admit(attrsFor('CREATE', b, { subresource: 'binding', kind: 'Binding' }), testContext);
    assert.deepEqual(b.metadata.labels, { 'topology.kubernetes.io/zone': 'mine' });
  });
});
