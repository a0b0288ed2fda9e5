import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FieldSet } from './field-set.js';
import { fieldsV1ToSet, setToFieldsV1, setToFieldsV1Text } from './fields-v1.js';
import { deserializePathElement, fieldElement, keyElement, pathToString, serializePathElement, type PathElement } from './path-element.js';

const f = fieldElement;
const k = (o: Record<string, string | number | boolean>) => keyElement(Object.entries(o));
const v = (x: string | number | boolean): PathElement => ({ kind: 'value', value: x });
const i = (n: number): PathElement => ({ kind: 'index', index: n });

describe('FieldsV1', () => {
  it('writes kube bytes: element order (fields, keys, values, indexes), "." first on members with children', () => {
    const set = FieldSet.of(
      [f('spec'), f('containers'), k({ name: 'nginx' })],
      [f('spec'), f('containers'), k({ name: 'nginx' }), f('image')],
      [f('metadata'), f('labels')],
      [f('metadata'), f('labels'), f('app')],
      [f('metadata'), f('finalizers'), v('b')],
      [f('metadata'), f('finalizers'), v(1)],
      [f('x'), i(2)],
      [f('x'), i(10)],
    );
    assert.equal(
      setToFieldsV1Text(set),
      '{"f:metadata":{"f:finalizers":{"v:1":{},"v:\\"b\\"":{}},"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{}}}},"f:x":{"i:2":{},"i:10":{}}}',
    );
    assert.ok(fieldsV1ToSet(setToFieldsV1(set)).equals(set), 'round trip');
    assert.ok(fieldsV1ToSet(setToFieldsV1Text(set)).equals(set), 'round trip from text');
  });

  it('sorts key fields by name and writes values as Go does (HTML escaped, integral floats without a fraction)', () => {
    const pe = keyElement([
      ['protocol', 'TCP'],
      ['port', 80],
    ]);
    assert.equal(serializePathElement(pe), 'k:{"port":80,"protocol":"TCP"}');
    assert.equal(serializePathElement(v('<a&b>')), 'v:"\\u003ca\\u0026b\\u003e"');
    assert.equal(serializePathElement(v(2.0)), 'v:2');
    assert.equal(pathToString([f('list'), keyElement([['key', 'a'], ['id', 2]]), f('id')]), '.list[id=2,key="a"].id');
    assert.equal(pathToString([f('set'), v(1), i(0)]), '.set[=1][0]');
    assert.deepEqual(deserializePathElement('k:{"port":80,"protocol":"TCP"}'), pe);
  });

  it('reads "." as membership, drops unknown element types and rejects malformed keys', () => {
    const set = fieldsV1ToSet({ 'f:a': { '.': {}, 'f:b': {} }, 'z:future': {}, 'f:c': {} });
    assert.deepEqual(set.paths().map(pathToString), ['.a', '.c', '.a.b']);
    assert.throws(() => fieldsV1ToSet({ 'k:{broken': {} }), /parsing key as path element/);
    assert.throws(() => fieldsV1ToSet({ x: {} }), /parsing key as path element/);
  });
});

describe('FieldSet', () => {
  const s = (...paths: PathElement[][]) => FieldSet.of(...paths);

  it('difference keeps a parent when only its child is removed; recursiveDifference removes the subtree', () => {
    const a = s([f('a')], [f('a'), f('b')], [f('c')]);
    const minusA = s([f('a')]);
    assert.deepEqual(a.difference(minusA).paths().map(pathToString), ['.c', '.a.b']);
    assert.deepEqual(a.recursiveDifference(minusA).paths().map(pathToString), ['.c']);
    assert.deepEqual(a.intersection(s([f('a'), f('b')], [f('d')])).paths().map(pathToString), ['.a.b']);
    assert.deepEqual(a.leaves().paths().map(pathToString), ['.c', '.a.b']);
    assert.ok(a.union(minusA).equals(a));
    assert.ok(new FieldSet().empty() && !a.empty());
  });
});
