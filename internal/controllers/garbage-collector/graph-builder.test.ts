import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, OwnerReference } from '../../../api/meta/types.js';
import { DependencyGraph, type GraphNode } from './graph.js';
import { GraphBuilder } from './graph-builder.js';
import type { GCResource } from './interface.js';
import { WorkQueue } from './queue.js';

const configmaps: GCResource = { group: '', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, apiVersion: 'v1' };
const namespaces: GCResource = { group: '', resource: 'namespaces', kind: 'Namespace', namespaced: false, apiVersion: 'v1' };

function cm(name: string, uid: string, owners: OwnerReference[] = [], extra: Partial<KubeObject['metadata']> = {}, namespace = 'ns'): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, uid, resourceVersion: '1', ...(owners.length ? { ownerReferences: owners } : {}), ...extra } };
}
const ref = (name: string, uid: string, block = false): OwnerReference => ({ apiVersion: 'v1', kind: 'ConfigMap', name, uid, ...(block ? { blockOwnerDeletion: true } : {}) });

/** A builder whose queues only record what is added. */
function setup() {
  const graph = new DependencyGraph();
  const toDelete = new WorkQueue<GraphNode>((n) => n.identity.uid);
  const toOrphan = new WorkQueue<GraphNode>((n) => n.identity.uid);
  const deleted: string[] = [];
  const orphaned: string[] = [];
  const reports: string[] = [];
  toDelete.add = (n) => void deleted.push(n.identity.name);
  toOrphan.add = (n) => void orphaned.push(n.identity.name);
  const builder = new GraphBuilder(graph, toDelete, toOrphan, (dep, r) => reports.push(`${dep.identity.name}->${r.name}`));
  return { graph, builder, deleted, orphaned, reports };
}

describe('GC graph builder', () => {
  it('keeps no node for objects with no part in ownership', () => {
    const { graph, builder, deleted } = setup();
    builder.upsert(configmaps, cm('plain', 'u1'));
    builder.upsert(configmaps, cm('plain', 'u1', [], { labels: { a: 'b' } }), cm('plain', 'u1'));
    builder.deleted(cm('plain', 'u1'));
    assert.equal(graph.size, 0);
    assert.deepEqual(deleted, []);
  });

  it('links a dependent to a virtual owner, queued to check it exists, then observed', () => {
    const { graph, builder, deleted } = setup();
    builder.upsert(configmaps, cm('child', 'c1', [ref('parent', 'p1')]));
    const parent = graph.get('p1');
    assert.ok(parent && !parent.observed);
    assert.deepEqual(parent.identity, { apiVersion: 'v1', kind: 'ConfigMap', name: 'parent', uid: 'p1', namespace: 'ns' });
    assert.deepEqual([...parent.dependents].map((d) => d.identity.name), ['child']);
    assert.deepEqual(deleted, ['parent']);
    builder.upsert(configmaps, cm('parent', 'p1'));
    assert.equal(graph.get('p1')?.observed, true);
  });

  it('an owner that goes queues its dependents; one that never was goes from the graph', () => {
    const { graph, builder, deleted } = setup();
    builder.upsert(configmaps, cm('parent', 'p1'));
    builder.upsert(configmaps, cm('child', 'c1', [ref('parent', 'p1')]));
    deleted.length = 0;
    builder.deleted(cm('parent', 'p1'));
    assert.equal(graph.get('p1'), undefined);
    assert.deepEqual(deleted, ['child']);
    assert.ok(graph.isAbsent({ apiVersion: 'v1', kind: 'ConfigMap', name: 'parent', uid: 'p1', namespace: 'ns' }));
  });

  it('foreground deletion marks the owner and queues its dependents and itself', () => {
    const { graph, builder, deleted } = setup();
    builder.upsert(configmaps, cm('a', 'a1', [ref('x', 'x1')]));
    builder.upsert(configmaps, cm('b', 'b1', [ref('x', 'x1', true)]));
    deleted.length = 0;
    const deleting = cm('x', 'x1', [], { deletionTimestamp: '2024-01-01T00:00:00Z', finalizers: ['foregroundDeletion'] });
    builder.upsert(configmaps, deleting);
    const x = graph.get('x1') as GraphNode;
    assert.equal(x.deletingDependents, true);
    assert.deepEqual(deleted.sort(), ['a', 'b', 'x']);
    assert.deepEqual(x.blockingDependents().map((d) => d.identity.name), ['b']);
    // b stops blocking: the owner is looked at again.
    deleted.length = 0;
    builder.upsert(configmaps, cm('b', 'b1', [ref('x', 'x1', false)]), cm('b', 'b1', [ref('x', 'x1', true)]));
    assert.deepEqual(deleted, ['x']);
    assert.deepEqual(x.blockingDependents(), []);
  });

  it('orphan deletion queues the owner for orphaning once', () => {
    const { builder, orphaned } = setup();
    const deleting = cm('x', 'x1', [], { deletionTimestamp: '2024-01-01T00:00:00Z', finalizers: ['orphan'] });
    builder.upsert(configmaps, deleting);
    builder.upsert(configmaps, { ...deleting, metadata: { ...deleting.metadata, resourceVersion: '2' } }, deleting);
    assert.deepEqual(orphaned, ['x']);
  });

  it('a reference removed from a dependent unlinks it; a virtual owner left alone goes', () => {
    const { graph, builder } = setup();
    builder.upsert(configmaps, cm('child', 'c1', [ref('parent', 'p1')]));
    builder.upsert(configmaps, cm('child', 'c1'), cm('child', 'c1', [ref('parent', 'p1')]));
    assert.equal(graph.get('p1'), undefined);
    assert.equal(graph.get('c1'), undefined);
  });

  it('reports a dependent naming an observed owner of another namespace', () => {
    const { builder, deleted, reports } = setup();
    builder.upsert(configmaps, cm('owner', 'o1', [], { deletionTimestamp: '2024-01-01T00:00:00Z', finalizers: ['orphan'] }, 'other'));
    deleted.length = 0;
    builder.upsert(configmaps, cm('child', 'c1', [ref('owner', 'o1')]));
    assert.deepEqual(reports, ['child->owner']);
    assert.deepEqual(deleted, ['child']);
  });

  it('an owner observed in another namespace than its dependents named: reported, dependents re-examined', () => {
    const { builder, deleted, reports } = setup();
    builder.upsert(configmaps, cm('child', 'c1', [ref('owner', 'o1')]));
    deleted.length = 0;
    builder.upsert(configmaps, cm('owner', 'o1', [], {}, 'other'));
    assert.deepEqual(reports, ['child->owner']);
    assert.deepEqual(deleted, ['child']);
  });

  it('a cluster-scoped dependent is its own identity (namespace "")', () => {
    const { graph, builder } = setup();
    builder.upsert(namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', uid: 'n1', ownerReferences: [ref('cm', 'p1')] } });
    assert.equal(graph.get('n1')?.identity.namespace, '');
    assert.equal(graph.get('p1')?.identity.namespace, '');
  });
});
