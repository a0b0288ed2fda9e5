import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isSuperset, mergeTolerations, verifyAgainstWhitelist } from './tolerations.js';

describe('toleration arithmetic', () => {
  it('an Exists toleration with no key covers every key; seconds bound NoExecute ones', () => {
    assert.equal(isSuperset({ operator: 'Exists' }, { key: 'a', operator: 'Equal', value: 'b', effect: 'NoSchedule' }), true);
    assert.equal(isSuperset({ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }, { key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 }), false);
    assert.equal(isSuperset({ key: 'a', operator: 'Equal', value: 'b' }, { key: 'a', operator: 'Equal', value: 'c' }), false);
  });

  it('merging drops covered entries and keeps the first of equal ones', () => {
    const all = { key: 'a', operator: 'Exists' };
    const narrow = { key: 'a', operator: 'Equal', value: 'x', effect: 'NoSchedule' };
    assert.deepEqual(mergeTolerations([narrow], [all, { ...all }]), [all]);
    assert.deepEqual(mergeTolerations([narrow], [{ key: 'b', operator: 'Exists' }]), [narrow, { key: 'b', operator: 'Exists' }]);
  });

  it('a whitelist must cover every toleration', () => {
    assert.equal(verifyAgainstWhitelist([{ key: 'a', operator: 'Exists' }], []), true);
    assert.equal(verifyAgainstWhitelist([{ key: 'a', operator: 'Exists' }], [{ key: 'b', operator: 'Exists' }]), false);
  });
});
