import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { v1alpha3Conversion, v1beta2Conversion } from './conversion.js';

describe('resource.k8s.io conversions over v1beta1', () => {
  it('nests exact request fields under exactly in v1beta2, except for firstAvailable requests', () => {
    const stored: KubeObject = {
      metadata: { name: 'c' },
      spec: {
        devices: {
          requests: [
            { name: 'gpu', deviceClassName: 'gpus', allocationMode: 'ExactCount', count: 2, tolerations: [{ key: 'k', operator: 'Exists' }] },
            { name: 'any', firstAvailable: [{ name: 'big', deviceClassName: 'big', allocationMode: 'ExactCount', count: 1 }] },
          ],
        },
      },
    };
    const conv = v1beta2Conversion('claim');
    const v1beta2 = conv.toExternal(stored);
    assert.deepEqual((v1beta2.spec as Record<string, any>).devices.requests, [
      { name: 'gpu', exactly: { deviceClassName: 'gpus', allocationMode: 'ExactCount', count: 2, tolerations: [{ key: 'k', operator: 'Exists' }] } },
      { name: 'any', firstAvailable: [{ name: 'big', deviceClassName: 'big', allocationMode: 'ExactCount', count: 1 }] },
    ]);
    assert.deepEqual(conv.toInternal(v1beta2), stored);
  });

  it('flattens basic devices in v1beta2 and writes plain capacities in v1alpha3', () => {
    const stored: KubeObject = {
      metadata: { name: 's' },
      spec: { driver: 'd', devices: [{ name: 'gpu-0', basic: { attributes: { model: { string: 'x' } }, capacity: { memory: { value: '8Gi' } } } }] },
    };
    const v1beta2 = v1beta2Conversion('slice').toExternal(stored);
    assert.deepEqual((v1beta2.spec as Record<string, any>).devices, [{ name: 'gpu-0', attributes: { model: { string: 'x' } }, capacity: { memory: { value: '8Gi' } } }]);
    assert.deepEqual(v1beta2Conversion('slice').toInternal(v1beta2), stored);
    const v1alpha3 = v1alpha3Conversion('slice').toExternal(stored);
    assert.deepEqual((v1alpha3.spec as Record<string, any>).devices[0].basic.capacity, { memory: '8Gi' });
    assert.deepEqual(v1alpha3Conversion('slice').toInternal(v1alpha3), stored);
    assert.deepEqual((stored.spec as Record<string, any>).devices[0].basic.capacity, { memory: { value: '8Gi' } }, 'input not mutated');
  });
});
