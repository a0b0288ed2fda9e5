import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { estimateCost } from '../../cel/cost-estimate.js';
import type { JSONSchemaProps } from '../interface.js';
import { schemaDeclType } from './decl-type.js';

function cost(schema: JSONSchemaProps, rule: string): number {
  const t = schemaDeclType(schema, false)!;
  return estimateCost(rule, new Map([['self', t], ['oldSelf', t]])).cost;
}

const prim = (type: string, format?: string): JSONSchemaProps => (type === 'int-or-string' ? { 'x-kubernetes-int-or-string': true } : { type, ...(format ? { format } : {}) });
const array = (items: JSONSchemaProps, maxItems?: number): JSONSchemaProps => ({ type: 'array', items, ...(maxItems !== undefined ? { maxItems } : {}) });
const map = (v: JSONSchemaProps, maxProperties?: number): JSONSchemaProps => ({ type: 'object', additionalProperties: v, ...(maxProperties !== undefined ? { maxProperties } : {}) });
const string = (maxLength?: number): JSONSchemaProps => ({ type: 'string', ...(maxLength !== undefined ? { maxLength } : {}) });

// Expected values are kube's (apiextensions-apiserver TestCostEstimation): unbounded, then with the given bounds.
describe('static cost estimation follows kube', () => {
  const cases: [string, JSONSchemaProps, JSONSchemaProps, string, number, number][] = [
    ['number array all', array(prim('number')), array(prim('number'), 10), 'self.all(x, true)', 4718591, 32],
    ['string array all', array(string()), array(string(), 20), 'self.all(x, true)', 3145727, 62],
    ['boolean array all', array(prim('boolean')), array(prim('boolean'), 5), 'self.all(x, true)', 1887437, 17],
    ['int-or-string array all', array(prim('int-or-string')), array(prim('int-or-string'), 10), 'self.all(x, true)', 4718591, 32],
    ['duration array all', array(prim('string', 'duration')), array(prim('string', 'duration'), 5), 'self.all(x, true)', 2359295, 17],
    ['date array all', array(prim('string', 'date')), array(prim('string', 'date'), 15), 'self.all(x, true)', 725936, 47],
    ['date-time array all', array(prim('string', 'date-time')), array(prim('string', 'date-time'), 25), 'self.all(x, true)', 428963, 77],
    ['boolean map all', map(prim('boolean')), map(prim('boolean'), 100), 'self.all(x, true)', 943718, 302],
    ['int-or-string map all', map(prim('int-or-string')), map(prim('int-or-string'), 15), 'self.all(x, true)', 1348169, 47],
    ['duration map all', map(prim('string', 'duration')), map(prim('string', 'duration'), 5), 'self.all(x, true)', 1048577, 17],
    ['date map all', map(prim('string', 'date')), map(prim('string', 'date'), 10), 'self.all(x, true)', 524288, 32],
    ['date-time map all', map(prim('string', 'date-time')), map(prim('string', 'date-time'), 25), 'self.all(x, true)', 349526, 77],
    ['string map has', map(string()), map(string(), 550), 'has(self.x)', 0, 0],
    ['contains', string(), string(10), "self.contains('test')", 314574, 5],
    ['startsWith', string(), string(15), "self.startsWith('test')", 2, 2],
    ['concat', string(), string(4), 'size(self + "hello") > size("hello")', 314578, 7],
    ['number index', array(prim('number')), array(prim('number'), 5000), 'self[1] == 0.0', 2, 2],
    ['string index equality', array(string()), array(string(), 8), 'self[1] == self[1]', 314577, 314577],
    ['int-or-string index', array(prim('int-or-string')), array(prim('int-or-string'), 10), 'self[0] == 5', 3, 3],
    ['boolean index', array(prim('boolean')), array(prim('boolean'), 25), 'self[0] == false', 2, 2],
    ['O(n^2) numbers', array(prim('number'), 10), array(prim('number'), 10), 'self.all(x, self.all(y, true))', 352, 352],
    ['O(n^3) numbers', array(prim('number'), 10), array(prim('number'), 10), 'self.all(x, self.all(y, self.all(z, true)))', 3552, 3552],
    ['matches', string(), string(), 'self.matches("x")', 314574, 314574],
    ['matches empty regex', string(), string(100), 'self.matches("")', 1, 1],
    ['all with equality', array(prim('number')), array(prim('number'), 3 * 1024 * 2048), 'self.all(x, x == 0.0)', 6291454, 25165826],
    ['duration index', array(prim('string', 'duration')), array(prim('string', 'duration'), 525), 'self[0].getHours() == 2', 4, 4],
    ['lowerAscii', string(), string(10), "self.lowerAscii() == 'lower!'", 314575, 6],
    ['size', map(prim('integer')), map(prim('integer'), 10), 'oldSelf.size() == self.size()', 5, 5],
    ['timestamp equality', map(prim('string', 'date-time')), map(prim('string', 'date-time'), 7), 'self["a"] == self["b"]', 8, 8],
    ['enum', { type: 'string', enum: ['A', 'B', 'C', 'LongValue'] }, { type: 'string', enum: ['A', 'B', 'C', 'LongValue'], maxLength: 1000 }, "self.contains('A')", 2, 401],
    ['isSorted', array(string()), array(string(10), 10), 'self.isSorted() == true', 329854432052, 52],
  ];
  for (const [name, unbounded, bounded, rule, want, wantBounded] of cases) {
    it(name, () => {
      assert.equal(cost(unbounded, rule), want, 'unbounded');
      assert.equal(cost(bounded, rule), wantBounded, 'bounded');
    });
  }

  it('replace is charged for what it reads and writes', () => {
    const obj = (max?: number): JSONSchemaProps => ({ type: 'object', properties: { str: string(max), before: string(2), after: string(4) } });
    assert.equal(cost(obj(), "self.str.replace(self.before, self.after) == 'does not matter'"), 629154);
    assert.equal(cost(obj(4), "self.str.replace(self.before, self.after) == 'does not matter'"), 12);
  });
});

describe('static cost estimation of comprehension results', () => {
  it('bounds what filter() and map() return by their elements (indexing the result stays cheap)', () => {
    const users = array({ type: 'object', properties: { name: string(63), superuser: prim('boolean') } }, 32);
    const schema: JSONSchemaProps = { type: 'object', properties: { users } };
    const filtered = cost(schema, "'user ' + self.users.filter(u, u.superuser)[0].name");
    const mapped = cost(schema, "self.users.map(u, u.name)[0] + 'x'");
    assert.ok(filtered < 1000, `filter: ${filtered}`);
    assert.ok(mapped < 1000, `map: ${mapped}`);
  });
});
