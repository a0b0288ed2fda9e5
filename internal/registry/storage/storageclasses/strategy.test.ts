import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { messages } from '../../shared/testing-messages.js';
import { defaultStorageClass, validateStorageClass, validateStorageClassUpdate } from './strategy.js';

function sc(fields: Record<string, unknown>): KubeObject {
  const obj: KubeObject = { metadata: { name: 'fast' }, provisioner: 'example.com/csi', ...fields };
  defaultStorageClass(obj);
  return obj;
}

describe('StorageClass validation', () => {
  it('defaults reclaimPolicy Delete and volumeBindingMode Immediate', () => {
    const obj = sc({});
    assert.equal(obj.reclaimPolicy, 'Delete');
    assert.equal(obj.volumeBindingMode, 'Immediate');
    assert.deepEqual(messages(validateStorageClass(obj)), []);
  });

  it('requires a provisioner and known policies', () => {
    assert.deepEqual(messages(validateStorageClass(sc({ provisioner: '', reclaimPolicy: 'Recycle', volumeBindingMode: 'Later' }))), [
      'provisioner: Required value',
      'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"',
      'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
    ]);
  });

  it('forbids changing parameters, provisioner, reclaim policy and binding mode', () => {
    const old = sc({ parameters: { type: 'ssd' } });
    const next = sc({ provisioner: 'example.com/other', parameters: { type: 'hdd' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' });
    assert.deepEqual(messages(validateStorageClassUpdate(next, old)), [
      'parameters: Forbidden: updates to parameters are forbidden.',
      'provisioner: Forbidden: updates to provisioner are forbidden.',
      'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
      'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
    ]);
  });
});
