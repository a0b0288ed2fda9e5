import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goFloat, goSprintValue, patchResultInvalid } from './patch-errors.js';

test('goFloat prints float64 as Go %v does', () => {
  const cases: Array<[number, string]> = [
    [1000, '1000'], [1.5, '1.5'], [100000, '100000'], [1e6, '1e+06'], [123456789, '1.23456789e+08'],
    [0.0001, '0.0001'], [0.00001, '1e-05'], [-2.25, '-2.25'], [1e21, '1e+21'], [123.456, '123.456'], [1.7976931348623157e308, '1.7976931348623157e+308'],
  ];
  for (const [n, want] of cases) assert.equal(goFloat(n), want, String(n));
});

test('goSprintValue prints a decoded patch as fmt prints map[string]interface{} with %+v', () => {
  const patch = { spec: { replicas: 1000, paused: true, template: null, b: ['x', 2, { z: 1, a: 'q' }] }, metadata: { labels: {} } };
  const floats = new Map([['spec.replicas', '1e3']]);
  assert.equal(goSprintValue(patch, floats), 'map[metadata:map[labels:map[]] spec:map[b:[x 2 map[a:q z:1]] paused:true replicas:1000 template:<nil>]]');
  assert.equal(goSprintValue({ r: 1e6 }, new Map([['r', '1e6']])), 'map[r:1e+06]');
  assert.equal(goSprintValue({ r: 1e6 }), 'map[r:1000000]', 'an integer literal is an int64');
  assert.equal(goSprintValue({ r: 1.5 }), 'map[r:1.5]');
});

test('patchResultInvalid is kube\'s 422 with no kind and no name and one cause on patch', () => {
  const err = patchResultInvalid('{"a":"<b>"}', 'json: cannot unmarshal string into Go struct field X.a of type int32');
  assert.equal(err.status.code, 422);
  assert.equal(err.status.reason, 'Invalid');
  assert.equal(err.status.message, ' "" is invalid: patch: Invalid value: "{\\"a\\":\\"<b>\\"}": json: cannot unmarshal string into Go struct field X.a of type int32');
  assert.deepEqual(err.status.details, {
    causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "{\\"a\\":\\"<b>\\"}": json: cannot unmarshal string into Go struct field X.a of type int32', field: 'patch' }],
  });
});
