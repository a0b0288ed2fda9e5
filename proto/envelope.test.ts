/** The `k8s\0` envelope, and the typed errors for bodies that are not one. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeEnvelope, decodeObject, encodeEnvelope, encodeObject, hasProtobufMagic, ProtobufError } from './codec.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

test('encodeEnvelope writes magic, Unknown{typeMeta, raw, contentEncoding, contentType}', () => {
  const out = encodeEnvelope({ apiVersion: 'v1', kind: 'Pod' }, Uint8Array.of(0x0a, 0x00));
  assert.equal(
    hex(out),
    '6b387300' + // k8s\0
      '0a09' + '0a027631' + '1203506f64' + // typeMeta {apiVersion "v1", kind "Pod"}
      '12020a00' + // raw
      '1a00' + // contentEncoding ""
      '2200', // contentType ""
  );
});

test('decodeEnvelope reads back type, raw and content fields', () => {
  const env = decodeEnvelope(encodeEnvelope({ apiVersion: 'apps/v1', kind: 'Deployment' }, Uint8Array.of(1, 2, 3)));
  assert.equal(env.apiVersion, 'apps/v1');
  assert.equal(env.kind, 'Deployment');
  assert.deepStrictEqual([...env.raw], [1, 2, 3]);
  assert.equal(env.contentEncoding, '');
  assert.equal(env.contentType, '');
});

test('hasProtobufMagic', () => {
  assert.equal(hasProtobufMagic(Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 1)), true);
  assert.equal(hasProtobufMagic(Buffer.from('{"kind":"Pod"}')), false);
  assert.equal(hasProtobufMagic(Uint8Array.of(0x6b, 0x38)), false);
});

function assertCode(fn: () => unknown, code: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ProtobufError, `expected ProtobufError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    return true;
  });
}

test('a body without the magic is MissingMagic', () => {
  assertCode(() => decodeEnvelope(Buffer.from('{"kind":"Namespace"}')), 'MissingMagic');
  assertCode(() => decodeEnvelope(new Uint8Array(0)), 'MissingMagic');
  assertCode(() => decodeObject(Buffer.from('k8s')), 'MissingMagic');
});

test('a cut-off body is Truncated', () => {
  const full = encodeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } });
  for (const cut of [5, 10, full.length - 12, full.length - 3]) {
    assertCode(() => decodeObject(full.subarray(0, cut)), 'Truncated');
  }
});

test('a wrong wire type is Malformed', () => {
  // typeMeta (field 1) as a varint instead of a message
  assertCode(() => decodeEnvelope(Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 0x08, 0x01)), 'Malformed');
  // field number 0
  assertCode(() => decodeEnvelope(Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 0x02, 0x00)), 'Malformed');
  // a raw ConfigMap whose metadata (field 1) is a varint
  assertCode(() => decodeObject(encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap' }, Uint8Array.of(0x08, 0x01))), 'Malformed');
});

test('an unknown kind is UnknownKind, both ways', () => {
  assertCode(() => decodeObject(encodeEnvelope({ apiVersion: 'example.com/v1', kind: 'Widget' }, new Uint8Array(0))), 'UnknownKind');
  assertCode(() => decodeObject(encodeEnvelope({ apiVersion: 'v1', kind: '' }, new Uint8Array(0))), 'UnknownKind');
  assertCode(() => encodeObject({ apiVersion: 'example.com/v1', kind: 'Widget' }), 'UnknownKind');
  assertCode(() => encodeObject({ kind: 'ConfigMap' }), 'UnknownKind');
});

test('a compressed envelope (contentEncoding set) is rejected as Malformed', () => {
  const w = Buffer.from(encodeEnvelope({ apiVersion: 'v1', kind: 'ConfigMap' }, new Uint8Array(0)));
  // replace the trailing `1a 00 22 00` with contentEncoding "gzip"
  const body = Buffer.concat([w.subarray(0, w.length - 4), Buffer.from([0x1a, 0x04, ...Buffer.from('gzip'), 0x22, 0x00])]);
  assertCode(() => decodeObject(body), 'Malformed');
});

test('decodeObject puts kind and apiVersion first, as kube writes JSON', () => {
  const obj = decodeObject(encodeObject({ metadata: { name: 'a' }, apiVersion: 'v1', kind: 'ConfigMap' }));
  assert.deepStrictEqual(Object.keys(obj).slice(0, 2), ['kind', 'apiVersion']);
});

test('a DeleteOptions body in any group version decodes (client-go sends them with the resource group)', () => {
  for (const apiVersion of ['v1', 'apps/v1', 'meta.k8s.io/v1']) {
    const opts = { kind: 'DeleteOptions', apiVersion, gracePeriodSeconds: 0, propagationPolicy: 'Foreground', dryRun: ['All'] };
    assert.deepStrictEqual(decodeObject(encodeObject(opts)), opts);
  }
});
