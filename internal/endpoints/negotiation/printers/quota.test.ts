/** ResourceQuotas: columns and cells as kube prints them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resourceQuotaPrinter } from './quota.js';
import { ago, columnSpec, day, now } from './testing.js';

describe('resourcequotas', () => {
  it('have kube columns and print used/hard, limits.* apart', () => {
    assert.deepEqual(columnSpec(resourceQuotaPrinter), [
      ['Name', 'string', 'name', 0],
      ['Age', 'string', '', 0],
      ['Request', 'string', '', 0],
      ['Limit', 'string', '', 0],
    ]);
    const q = {
      metadata: { name: 'compute', creationTimestamp: ago(day) },
      status: { hard: { pods: '10', 'requests.cpu': '2', 'limits.memory': '2Gi', 'limits.cpu': '4' }, used: { pods: '3', 'requests.cpu': '500m', 'limits.cpu': '1' } },
    };
    assert.deepEqual(resourceQuotaPrinter.cells(q, now), ['compute', '24h', 'pods: 3/10, requests.cpu: 500m/2', 'limits.cpu: 1/4, limits.memory: 0/2Gi']);
    assert.deepEqual(resourceQuotaPrinter.cells({ metadata: { name: 'new', creationTimestamp: ago(day) } }, now), ['new', '24h', '', '']);
  });
});
