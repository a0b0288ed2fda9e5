import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileJsonPath, JsonPathError, printJsonValue } from './jsonpath.js';

const obj = {
  metadata: { name: 'w', labels: { 'app.kubernetes.io/name': 'web', tier: 'a' } },
  spec: { replicas: 3, ports: [80, 443, 8080, 9090], nested: { a: { name: 'deep' } } },
  status: {
    conditions: [
      { type: 'Available', status: 'False', count: 1 },
      { type: 'Ready', status: 'True', count: 5 },
    ],
  },
  items: [{ name: 'x' }, { name: 'y', extra: true }],
};

const find = (path: string, o: unknown = obj): unknown[] => compileJsonPath(path).find(o);

describe('jsonpath', () => {
  it('reads fields, with or without braces, dots or brackets', () => {
    assert.deepEqual(find('.spec.replicas'), [3]);
    assert.deepEqual(find('{.spec.replicas}'), [3]);
    assert.deepEqual(find("$.metadata['labels']['app.kubernetes.io/name']"), ['web']);
    assert.deepEqual(find('.metadata.labels["tier"]'), ['a']);
    assert.deepEqual(find('.spec.missing'), []);
    assert.deepEqual(find('.spec.replicas.below'), []);
  });

  it('indexes and slices arrays as client-go does', () => {
    assert.deepEqual(find('.spec.ports[0]'), [80]);
    assert.deepEqual(find('.spec.ports[-1]'), [9090]);
    assert.deepEqual(find('.spec.ports[1:3]'), [443, 8080]);
    assert.deepEqual(find('.spec.ports[::2]'), [80, 8080]);
    assert.deepEqual(find('.spec.ports[2:]'), [8080, 9090]);
    assert.deepEqual(find('.spec.ports[0,2]'), [80, 8080]);
    assert.deepEqual(find('.spec.ports[10]'), []);
  });

  it('expands wildcards and unions', () => {
    assert.deepEqual(find('.items[*].name'), ['x', 'y']);
    assert.deepEqual(find('.metadata.labels.*').sort(), ['a', 'web']);
    assert.deepEqual(find(".metadata['name','missing']"), ['w']);
  });

  it('filters array items', () => {
    assert.deepEqual(find('.status.conditions[?(@.type=="Ready")].status'), ['True']);
    assert.deepEqual(find(".status.conditions[?(@.type!='Ready')].type"), ['Available']);
    assert.deepEqual(find('.status.conditions[?(@.count > 2)].type'), ['Ready']);
    assert.deepEqual(find('.status.conditions[?(@.count<=1)].type'), ['Available']);
    assert.deepEqual(find('.items[?(@.extra)].name'), ['y']);
  });

  it('descends recursively', () => {
    assert.deepEqual(find('..name'), ['w', 'deep', 'x', 'y']);
    assert.deepEqual(find('.spec..name'), ['deep']);
    assert.deepEqual(find('..conditions[1].type'), ['Ready']);
  });

  it('refuses paths that do not parse', () => {
    assert.throws(() => compileJsonPath('.spec[abc]'), JsonPathError);
    assert.throws(() => compileJsonPath('.spec['), JsonPathError);
    assert.throws(() => compileJsonPath('.status.conditions[?(@.type=="Ready"]'), JsonPathError);
    assert.throws(() => compileJsonPath('spec'), JsonPathError);
  });

  it('prints values as Go’s fmt does', () => {
    assert.equal(printJsonValue('s'), 's');
    assert.equal(printJsonValue(3), '3');
    assert.equal(printJsonValue(1.5), '1.5');
    assert.equal(printJsonValue(1e21), '1e+21');
    assert.equal(printJsonValue(true), 'true');
    assert.equal(printJsonValue([1, 'a']), '[1 a]');
    assert.equal(printJsonValue({ b: 1, a: { c: 'x' } }), 'map[a:map[c:x] b:1]');
  });
});
