/** apiservices: columns and cells as kube-aggregator prints them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiServicePrinter } from './apiregistration.js';
import { ago, columnSpec, day, now } from './testing.js';

describe('apiservices', () => {
  it('have kube columns', () => {
    assert.deepEqual(columnSpec(apiServicePrinter), [
      ['Name', 'string', 'name', 0],
      ['Service', 'string', '', 0],
      ['Available', 'string', '', 0],
      ['Age', 'string', '', 0],
    ]);
  });
  it('print Local or the service, and the condition with its reason when not True', () => {
    const local = { metadata: { name: 'v1.apps', creationTimestamp: ago(2 * day) }, spec: { group: 'apps' }, status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] } };
    assert.deepEqual(apiServicePrinter.cells(local, now), ['v1.apps', 'Local', 'True', '2d']);
    const remote = { metadata: { name: 'v1beta1.metrics.k8s.io' }, spec: { service: { namespace: 'kube-system', name: 'metrics-server' } }, status: { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }] } };
    assert.deepEqual(apiServicePrinter.cells(remote, now), ['v1beta1.metrics.k8s.io', 'kube-system/metrics-server', 'False (MissingEndpoints)', '<unknown>']);
    assert.equal(apiServicePrinter.cells({ metadata: { name: 'x' }, spec: {} }, now)[2], 'Unknown');
  });
});
