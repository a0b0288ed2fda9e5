import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { add, equals, lessThanOrEqual, mask, prettyPrint, removeZeros, resourceListFromJSON as rl, resourceListToJSON, subtractNonNegative } from './resource-list.js';

describe('resource lists', () => {
  it('adds, masks, compares and prints like kube', () => {
    const a = rl({ cpu: '500m', memory: '1Gi' });
    const b = rl({ cpu: '500m', pods: '2' });
    assert.deepEqual(resourceListToJSON(add(a, b)), { cpu: '1', memory: '1Gi', pods: '2' });
    assert.deepEqual(resourceListToJSON(mask(a, ['cpu', 'x'])), { cpu: '500m' });
    assert.deepEqual(lessThanOrEqual(rl({ cpu: '2', memory: '1' }), rl({ cpu: '1' })), { ok: false, exceeded: ['cpu'] });
    assert.deepEqual(resourceListToJSON(subtractNonNegative(rl({ a: '1', b: '5' }), rl({ a: '3', c: '1' }))), { a: '0', b: '5', c: '0' });
    assert.equal(equals(rl({ a: '1000m' }), rl({ a: '1' })), true);
    assert.equal(equals(rl({ a: '1' }), rl({ a: '1', b: '0' })), false);
    assert.deepEqual([...removeZeros(rl({ a: '0', b: '1' })).keys()], ['b']);
    assert.equal(prettyPrint(rl({ pods: '1', 'limits.cpu': '2' })), 'limits.cpu=2,pods=1');
  });
});
