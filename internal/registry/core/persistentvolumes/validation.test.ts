import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { messages } from '../../shared/testing-messages.js';
import { validatePersistentVolume, validatePersistentVolumeUpdate } from './validation.js';

function pv(spec: Record<string, unknown>): KubeObject {
  return { metadata: { name: 'v' }, spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: '/data' }, persistentVolumeReclaimPolicy: 'Retain', ...spec } };
}

describe('PersistentVolume validation', () => {
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ['a valid volume', {}, []],
    ['no access modes', { accessModes: [] }, ['spec.accessModes: Required value']],
    ['no capacity', { capacity: {} }, ['spec.capacity: Required value', 'spec.capacity: Unsupported value: {}: supported values: "storage"']],
    ['a capacity other than storage', { capacity: { storage: '1Gi', cpu: '1' } }, ['spec.capacity: Unsupported value: {"storage":"1Gi","cpu":"1"}: supported values: "storage"']],
    ['no volume source', { hostPath: undefined }, ['spec: Required value: must specify a volume type']],
    ['two volume sources', { nfs: { server: 's', path: '/' } }, ['spec.nfs: Forbidden: may not specify more than 1 volume type']],
    ['an unknown reclaim policy', { persistentVolumeReclaimPolicy: 'Keep' }, ['spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"']],
  ];
  for (const [name, spec, want] of cases) {
    it(name, () => assert.deepEqual(messages(validatePersistentVolume(pv(spec))), want));
  }

  it('keeps the volume source fixed', () => {
    assert.deepEqual(messages(validatePersistentVolumeUpdate(pv({ hostPath: { path: '/other' } }), pv({}))), [
      'spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation',
    ]);
    assert.deepEqual(messages(validatePersistentVolumeUpdate(pv({ capacity: { storage: '2Gi' } }), pv({}))), []);
  });
});
