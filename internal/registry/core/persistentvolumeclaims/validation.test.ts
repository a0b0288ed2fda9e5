import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { messages } from '../../shared/testing-messages.js';
import { validateClaim, validateClaimUpdate } from './validation.js';

function pvc(spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject {
  return { metadata: { name: 'c' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem', ...spec }, ...(status ? { status } : {}) };
}

describe('PersistentVolumeClaim validation', () => {
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ['a valid claim', {}, []],
    ['no access modes', { accessModes: [] }, ['spec.accessModes: Required value: at least 1 access mode is required']],
    ['an unknown access mode', { accessModes: ['ReadSometimes'] }, ['spec.accessModes: Unsupported value: "ReadSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"']],
    ['no storage request', { resources: {} }, ['spec.resources[storage]: Required value']],
    ['a zero storage request', { resources: { requests: { storage: '0' } } }, ['spec.resources[storage]: Invalid value: "0": must be greater than zero']],
    ['an unknown volume mode', { volumeMode: 'Tape' }, ['spec.volumeMode: Unsupported value: "Tape": supported values: "Block", "Filesystem"']],
  ];
  for (const [name, spec, want] of cases) {
    it(name, () => assert.deepEqual(messages(validateClaim(pvc(spec))), want));
  }

  it('lets only a bound claim grow, and nothing else change', () => {
    const pending = pvc({}, { phase: 'Pending' });
    assert.deepEqual(messages(validateClaimUpdate(pvc({ resources: { requests: { storage: '2Gi' } } }), pending)), [
      'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
    ]);
    const bound = pvc({}, { phase: 'Bound', capacity: { storage: '1Gi' } });
    assert.deepEqual(messages(validateClaimUpdate(pvc({ resources: { requests: { storage: '2Gi' } } }), bound)), []);
    assert.deepEqual(messages(validateClaimUpdate(pvc({ resources: { requests: { storage: '500Mi' } } }), bound)), [
      'spec.resources.requests.storage: Forbidden: field can not be less than status.capacity',
    ]);
  });
});
