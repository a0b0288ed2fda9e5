import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { conditionEquivalent, findCondition, removeCondition, setCondition } from './conditions.js';

describe('CRD conditions', () => {
  it('setCondition keeps lastTransitionTime while the status holds, moves it when it changes', () => {
    const crd: KubeObject = { metadata: {}, status: { conditions: [{ type: 'Established', status: 'False', lastTransitionTime: '2020-01-01T00:00:00Z', reason: 'Installing', message: 'm' }] } };
    setCondition(crd, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'x' });
    assert.deepEqual(findCondition(crd, 'Established'), { type: 'Established', status: 'False', lastTransitionTime: '2020-01-01T00:00:00Z', reason: 'NotAccepted', message: 'x' });
    setCondition(crd, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'y' });
    assert.notEqual(findCondition(crd, 'Established')?.lastTransitionTime, '2020-01-01T00:00:00Z');
    setCondition(crd, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    assert.deepEqual((crd.status as { conditions: { type: string }[] }).conditions.map((c) => c.type), ['Established', 'NamesAccepted']);
    removeCondition(crd, 'Established');
    assert.equal(findCondition(crd, 'Established'), undefined);
  });

  it('conditionEquivalent ignores times only', () => {
    const a = { type: 'T', status: 'True' as const, reason: 'R', message: 'M', lastTransitionTime: '2020-01-01T00:00:00Z' };
    assert.ok(conditionEquivalent(a, { ...a, lastTransitionTime: '2021-01-01T00:00:00Z' }));
    assert.ok(!conditionEquivalent(a, { ...a, message: 'other' }));
    assert.ok(!conditionEquivalent(a, undefined));
  });
});
