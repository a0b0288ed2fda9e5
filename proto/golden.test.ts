/**
 * Byte-for-byte checks of small objects against the layout kube-apiserver writes (gogo-protobuf
 * Marshal: ascending field numbers, Go non-pointer fields always present, pointers only when set;
 * the envelope's Unknown with empty contentEncoding/contentType). The expected bytes are spelled
 * out with a tiny independent encoder below, field by field, so a reader can check each against
 * kube's generated.proto numbering.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeObject, encodeObject } from './codec.js';

function varint(value: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
const key = (n: number, wireType: number) => varint((n << 3) | wireType);
const num = (n: number, v: number | bigint | boolean) => [...key(n, 0), ...varint(typeof v === 'boolean' ? (v ? 1 : 0) : v)];
const bytes = (n: number, b: number[]) => [...key(n, 2), ...varint(b.length), ...b];
const str = (n: number, s: string) => bytes(n, [...Buffer.from(s, 'utf8')]);
const msg = (n: number, ...parts: number[][]) => bytes(n, parts.flat());
const envelope = (apiVersion: string, kind: string, raw: number[]) =>
  Buffer.from([0x6b, 0x38, 0x73, 0x00, ...msg(1, str(1, apiVersion), str(2, kind)), ...bytes(2, raw), ...str(3, ''), ...str(4, '')]);

/** meta/v1 Time {seconds = 1, nanos = 2}: kube always writes nanos 0. */
const time = (n: number, iso: string) => msg(n, num(1, Date.parse(iso) / 1000), num(2, 0));

/** ObjectMeta with only name (and optionally namespace) set: the non-pointer fields 1-8 are always written. */
function objectMeta(fields: { name: string; namespace?: string; creationTimestamp?: string; labels?: [string, string][] }): number[] {
  return msg(
    1,
    str(1, fields.name),
    str(2, ''), // generateName
    str(3, fields.namespace ?? ''),
    str(4, ''), // selfLink
    str(5, ''), // uid
    str(6, ''), // resourceVersion
    num(7, 0), // generation
    fields.creationTimestamp ? time(8, fields.creationTimestamp) : msg(8), // zero Time: empty message
    ...(fields.labels ?? []).map(([k, v]) => msg(11, str(1, k), str(2, v))),
  );
}

test('Namespace encodes as kube-apiserver writes it', () => {
  const ns = {
    kind: 'Namespace',
    apiVersion: 'v1',
    metadata: { name: 'ns1', creationTimestamp: '2024-01-02T03:04:05Z', labels: { 'kubernetes.io/metadata.name': 'ns1' } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
  const expected = envelope('v1', 'Namespace', [
    ...objectMeta({ name: 'ns1', creationTimestamp: '2024-01-02T03:04:05Z', labels: [['kubernetes.io/metadata.name', 'ns1']] }),
    ...msg(2, str(1, 'kubernetes')),
    ...msg(3, str(1, 'Active')),
  ]);
  const actual = Buffer.from(encodeObject(ns));
  assert.equal(actual.toString('hex'), expected.toString('hex'));
  assert.deepStrictEqual(decodeObject(actual), ns);
});

test('a bare Namespace still carries empty spec, status and zero metadata fields', () => {
  const actual = Buffer.from(encodeObject({ kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'x' } }));
  const expected = envelope('v1', 'Namespace', [...objectMeta({ name: 'x' }), ...msg(2), ...msg(3, str(1, '')) /* status.phase, a Go non-pointer */]);
  assert.equal(actual.toString('hex'), expected.toString('hex'));
  // And kube's JSON for that object: creationTimestamp null, empty spec and status.
  assert.deepStrictEqual(decodeObject(actual), { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'x', creationTimestamp: null }, spec: {}, status: {} });
});

test('ConfigMap: map entries in sorted key order, bytes values raw, immutable pointer written when set', () => {
  const cm = {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { name: 'cfg', namespace: 'default', creationTimestamp: '2024-01-02T03:04:05Z' },
    immutable: false,
    data: { 'b.txt': 'two', 'a.txt': 'one', '': 'empty-key' },
    binaryData: { bin: Buffer.from([0, 1, 2, 255]).toString('base64') },
  };
  const expected = envelope('v1', 'ConfigMap', [
    ...objectMeta({ name: 'cfg', namespace: 'default', creationTimestamp: '2024-01-02T03:04:05Z' }),
    ...msg(2, str(1, ''), str(2, 'empty-key')),
    ...msg(2, str(1, 'a.txt'), str(2, 'one')),
    ...msg(2, str(1, 'b.txt'), str(2, 'two')),
    ...msg(3, str(1, 'bin'), bytes(2, [0, 1, 2, 255])),
    ...num(4, false),
  ]);
  const actual = Buffer.from(encodeObject(cm));
  assert.equal(actual.toString('hex'), expected.toString('hex'));
  const decoded = decodeObject(actual);
  assert.deepStrictEqual(decoded, { ...cm, data: { '': 'empty-key', 'a.txt': 'one', 'b.txt': 'two' } });
  assert.deepStrictEqual(Object.keys(decoded['data'] as object), ['', 'a.txt', 'b.txt']);
});

test('Status error body matches kube-apiserver bytes', () => {
  const status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'pods "a" not found',
    reason: 'NotFound',
    details: { name: 'a', kind: 'pods' },
    code: 404,
  };
  const expected = envelope('v1', 'Status', [
    ...msg(1, str(1, ''), str(2, ''), str(3, '')), // ListMeta: selfLink, resourceVersion, continue
    ...str(2, 'Failure'),
    ...str(3, 'pods "a" not found'),
    ...str(4, 'NotFound'),
    ...msg(5, str(1, 'a'), str(2, ''), str(3, 'pods'), num(5, 0), str(6, '')), // StatusDetails
    ...num(6, 404),
  ]);
  const actual = Buffer.from(encodeObject(status));
  assert.equal(actual.toString('hex'), expected.toString('hex'));
  assert.deepStrictEqual(decodeObject(actual), status);
});

test('Service: IntOrString targetPort and pointer/value fields', () => {
  const svc = {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: { name: 'web', namespace: 'default', creationTimestamp: '2024-01-02T03:04:05Z' },
    spec: { ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }], selector: { app: 'web' }, clusterIP: '10.0.0.1', type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster' },
    status: { loadBalancer: {} },
  };
  const expected = envelope('v1', 'Service', [
    ...objectMeta({ name: 'web', namespace: 'default', creationTimestamp: '2024-01-02T03:04:05Z' }),
    ...msg(
      2,
      // ServicePort: name 1, protocol 2, port 3, targetPort 4 (IntOrString type/intVal/strVal), nodePort 5
      msg(1, str(1, 'http'), str(2, 'TCP'), num(3, 80), msg(4, num(1, 0), num(2, 8080), str(3, '')), num(5, 0)),
      msg(2, str(1, 'app'), str(2, 'web')),
      str(3, '10.0.0.1'),
      str(4, 'ClusterIP'),
      str(7, 'None'),
      str(8, ''), // loadBalancerIP
      str(10, ''), // externalName
      str(11, ''), // externalTrafficPolicy
      num(12, 0), // healthCheckNodePort
      num(13, false), // publishNotReadyAddresses
      str(22, 'Cluster'), // internalTrafficPolicy (a pointer, set)
    ),
    ...msg(3, msg(1)), // status.loadBalancer
  ]);
  const actual = Buffer.from(encodeObject(svc));
  assert.equal(actual.toString('hex'), expected.toString('hex'));
  assert.deepStrictEqual(decodeObject(actual), svc);
});
