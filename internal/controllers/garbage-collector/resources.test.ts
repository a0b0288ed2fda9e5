import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { metadataOnly, servedResources } from './resources.js';
import type { RestStorage } from '../../registry/interface.js';

describe('GC resources', () => {
  it('keeps kind and the metadata the collector reads, nothing else', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'ns', uid: 'u', resourceVersion: '7', labels: { a: 'b' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'r', uid: 'r1' }], finalizers: ['x'] },
      spec: { containers: [{ name: 'c', image: 'i' }] },
    };
    assert.deepEqual(metadataOnly(pod), {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'ns', uid: 'u', resourceVersion: '7', ownerReferences: pod.metadata.ownerReferences, finalizers: ['x'] },
    });
  });

  it('follows served resources that list, watch, update and delete, except events, mapping kinds by group', () => {
    const full = { list() {}, watch() {}, update() {}, delete() {} } as unknown as RestStorage;
    const served = new Set(['/configmaps', '/events', 'apps/deployments', '/componentstatuses', 'events.k8s.io/events']);
    const mapper = servedResources((group, resource) => (served.has(`${group}/${resource}`) ? (resource === 'componentstatuses' ? ({ list() {} } as unknown as RestStorage) : full) : undefined));
    assert.deepEqual(mapper.all().map((r) => `${r.group}/${r.resource}`).sort(), ['/configmaps', 'apps/deployments']);
    assert.equal(mapper.resourceFor('apps/v1', 'Deployment')?.resource, 'deployments');
    assert.equal(mapper.resourceFor('apps/v1beta2', 'Deployment')?.resource, 'deployments', 'any version of the group');
    assert.equal(mapper.resourceFor('v1', 'Deployment'), undefined);
    assert.equal(mapper.resourceFor('v1', 'ConfigMap')?.namespaced, true);
  });
});
