import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkFromUnstructured } from './unstructured.js';

const deploy = { group: 'apps', version: 'v1', kind: 'Deployment' };
const secret = { group: '', version: 'v1', kind: 'Secret' };
const cm = { group: '', version: 'v1', kind: 'ConfigMap' };

test('the unstructured converter\'s messages for values of the wrong kind', () => {
  const err = (gvk: typeof deploy, obj: Record<string, unknown>, floats?: Map<string, string>) => checkFromUnstructured(gvk, obj, floats).error;
  assert.equal(err(deploy, { spec: { replicas: 2 } }), undefined);
  assert.equal(err(deploy, { spec: { replicas: 1000 } }, new Map([['spec.replicas', '1e3']])), undefined, 'a whole float64 goes into an integer');
  assert.equal(err(deploy, { spec: { replicas: 1.5 } }), 'cannot convert float64 to int32');
  assert.equal(err(deploy, { spec: { replicas: true } }), 'unrecognized type: int32');
  assert.equal(err(deploy, { spec: { replicas: [1] } }), 'unrecognized type: int32');
  assert.equal(err(deploy, { spec: { paused: 'yes' } }), 'unrecognized type: bool');
  assert.equal(err(deploy, { spec: { template: { spec: { restartPolicy: 5 } } } }), 'cannot convert int64 to v1.RestartPolicy');
  assert.equal(err(deploy, { spec: { template: { spec: { restartPolicy: 5.5 } } } }), 'unrecognized type: string');
  assert.equal(err(deploy, { spec: 'x' }), 'cannot restore struct from: string');
  assert.equal(err(deploy, { spec: [] }), 'cannot restore struct from: slice');
  assert.equal(err(deploy, { metadata: { labels: 'x' } }), 'cannot restore map from string');
  assert.equal(err(deploy, { spec: { template: { spec: { containers: { a: 1 } } } } }), 'cannot restore slice from map');
  assert.equal(err(secret, { data: { k: 'not base64!' } }), 'error decoding from json: illegal base64 data at input byte 3');
  assert.equal(err(secret, { data: { k: 'YQ==' } }), undefined);
  assert.equal(err(cm, { data: { k: 5 } }), 'cannot convert int64 to string');
  assert.equal(err(deploy, { spec: { strategy: { rollingUpdate: { maxSurge: true } } } }), 'json: cannot unmarshal bool into Go value of type int32', 'a custom decoder, without struct context');
});

test('unknown fields come back sorted by their message, as the converter sorts them', () => {
  const res = checkFromUnstructured(deploy, { spec: { zz: 1, template: { spec: { containers: [{ name: 'c', bogus: 1 }] } }, a: 1, 'a.b': 2 }, extra: true });
  assert.deepEqual(res.unknownFieldMessages, ['unknown field "extra"', 'unknown field "spec.a"', 'unknown field "spec.a.b"', 'unknown field "spec.template.spec.containers[0].bogus"', 'unknown field "spec.zz"']);
  assert.equal(res.error, undefined);
});
