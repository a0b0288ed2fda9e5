import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/meta/types.js';
import { newObjectCountEvaluator, objectCountName, parseObjectCountName } from './object-count.js';
import { claimClass, newPersistentVolumeClaimEvaluator, requiresQuotaReplenish } from './persistent-volume-claims.js';
import { EvaluatorRegistry, isIgnoredResource } from './registry.js';
import { resourceListToJSON } from './resource-list.js';
import { newServiceEvaluator } from './services.js';

const obj = (o: Record<string, unknown>): KubeObject => ({ metadata: { name: 'x' }, ...o }) as KubeObject;

describe('services evaluator', () => {
  const e = newServiceEvaluator();
  it('counts node ports and load balancers by type', () => {
    const ports = [{ port: 80 }, { port: 443, nodePort: 30001 }];
    assert.deepEqual(resourceListToJSON(e.usage(obj({ spec: { type: 'ClusterIP', ports } }))), {
      'count/services': '1',
      services: '1',
      'services.loadbalancers': '0',
      'services.nodeports': '0',
    });
    assert.equal(e.usage(obj({ spec: { type: 'NodePort', ports } })).get('services.nodeports')?.toString(), '2');
    const lb = e.usage(obj({ spec: { type: 'LoadBalancer', ports, allocateLoadBalancerNodePorts: false } }));
    assert.equal(lb.get('services.nodeports')?.toString(), '1');
    assert.equal(lb.get('services.loadbalancers')?.toString(), '1');
    assert.deepEqual(e.matchingResources(['services', 'pods', 'services.nodeports']), ['services', 'services.nodeports']);
  });
});

describe('persistentvolumeclaims evaluator', () => {
  const e = newPersistentVolumeClaimEvaluator();
  it('charges claims and storage, also per storage class, in whole bytes and at least what was allocated', () => {
    const pvc = obj({ spec: { storageClassName: 'gold', resources: { requests: { storage: '1500m' } } } });
    assert.deepEqual(resourceListToJSON(e.usage(pvc)), {
      persistentvolumeclaims: '1',
      'count/persistentvolumeclaims': '1',
      'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
      'requests.storage': '2',
      'gold.storageclass.storage.k8s.io/requests.storage': '2',
    });
    const grown = obj({ spec: { resources: { requests: { storage: '1Gi' } } }, status: { allocatedResources: { storage: '2Gi' } } });
    assert.equal(e.usage(grown).get('requests.storage')?.toString(), '2Gi');
    assert.equal(requiresQuotaReplenish(grown, obj({ status: {} })), true);
    assert.equal(requiresQuotaReplenish(grown, grown), false);
  });

  it('prefers the beta class annotation and tracks storage-class names', () => {
    assert.equal(claimClass(obj({ metadata: { name: 'x', annotations: { 'volume.beta.kubernetes.io/storage-class': 'beta' } }, spec: { storageClassName: 'gold' } })), 'beta');
    assert.deepEqual(e.matchingResources(['requests.storage', 'x.storageclass.storage.k8s.io/requests.storage', 'x.storageclass.storage.k8s.io/other', 'pods']), [
      'requests.storage',
      'x.storageclass.storage.k8s.io/requests.storage',
    ]);
  });
});

describe('object counts and the registry', () => {
  it('names counts count/<resource>[.<group>] and parses them back', () => {
    assert.equal(objectCountName('apps', 'deployments'), 'count/deployments.apps');
    assert.equal(objectCountName('', 'secrets'), 'count/secrets');
    assert.deepEqual(parseObjectCountName('count/widgets.example.com'), { group: 'example.com', resource: 'widgets' });
    assert.equal(parseObjectCountName('pods'), undefined);
  });

  it('keeps legacy aliases and creates counters on demand; ignores events and reviews', () => {
    const r = new EvaluatorRegistry();
    assert.deepEqual(r.get('', 'configmaps')?.matchingResources(['configmaps', 'count/configmaps', 'secrets']), ['configmaps', 'count/configmaps']);
    assert.equal(r.get('apps', 'deployments'), undefined);
    const d = r.getOrCreate('apps', 'deployments');
    assert.deepEqual(resourceListToJSON(d.usage(obj({}))), { 'count/deployments.apps': '1' });
    assert.equal(r.get('apps', 'deployments'), d);
    assert.equal(isIgnoredResource('', 'events'), true);
    assert.equal(isIgnoredResource('authorization.k8s.io', 'subjectaccessreviews'), true);
    assert.equal(isIgnoredResource('', 'pods'), false);
    assert.deepEqual(newObjectCountEvaluator('', 'secrets').matchingResources(['secrets']), []);
  });
});
