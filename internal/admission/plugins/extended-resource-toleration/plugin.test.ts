import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attrsFor, pod, testContext } from '../pod-shared/fakes.js';
import type { Pod } from '../pod-shared/pod-types.js';
import { ExtendedResourceToleration, isExtendedResourceName } from './plugin.js';

describe('ExtendedResourceToleration', () => {
  it('tells extended resources from native ones', () => {
    assert.equal(isExtendedResourceName('example.com/gpu'), true);
    assert.equal(isExtendedResourceName('cpu'), false);
    assert.equal(isExtendedResourceName('kubernetes.io/thing'), false);
    assert.equal(isExtendedResourceName('requests.example.com/gpu'), false);
  });

  it('tolerates each requested extended resource once, sorted', async () => {
    const obj = pod('p', {
      tolerations: [{ key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
      initContainers: [{ name: 'i', image: 'x', resources: { requests: { 'b.io/fpga': '1' } } }],
      containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '1', 'example.com/gpu': '2' }, limits: { 'z.io/only-limit': '1' } } }],
    });
    await new ExtendedResourceToleration().admit(attrsFor('CREATE', obj), testContext);
    assert.deepEqual((obj as Pod).spec?.tolerations, [
      { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'b.io/fpga', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  });
});
