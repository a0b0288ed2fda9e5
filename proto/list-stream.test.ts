/** Protobuf lists in pieces: concatenated, exactly what encodeObject gives for the whole list. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeObject, encodeObject } from './codec.js';
import { encodeListPieces } from './list-stream.js';
import type { JsonObject } from './types.js';

function configMap(i: number): JsonObject {
  return {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { name: `cm-${i}`, namespace: 'default', resourceVersion: String(10 + i), uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`, creationTimestamp: '2025-01-02T03:04:05Z', labels: { app: 'x' } },
    data: { payload: 'p'.repeat(200 + i * 37) },
  };
}

function pod(i: number): JsonObject {
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name: `pod-${i}`, namespace: 'default', resourceVersion: '5' },
    spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: '500m', memory: '1Gi' } } }] },
    status: { phase: 'Running' },
  };
}

function joined(pieces: readonly Uint8Array[]): Buffer {
  return Buffer.concat(pieces);
}

const cases: { name: string; list: JsonObject & { items: JsonObject[] } }[] = [
  { name: 'empty ConfigMapList', list: { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items: [] } },
  { name: 'one ConfigMap', list: { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '2' }, items: [configMap(0)] } },
  {
    name: 'a paged ConfigMapList with items whose lengths need two-byte varints',
    list: { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '3', continue: 'tok', remainingItemCount: 17 }, items: Array.from({ length: 40 }, (_, i) => configMap(i)) },
  },
  { name: 'a PodList', list: { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '4' }, items: [pod(0), pod(1)] } },
  {
    name: 'a Deployment list in a group (raw larger than 16 KiB: a three-byte length)',
    list: {
      kind: 'DeploymentList',
      apiVersion: 'apps/v1',
      metadata: { resourceVersion: '9' },
      items: Array.from({ length: 60 }, (_, i) => ({
        kind: 'Deployment',
        apiVersion: 'apps/v1',
        metadata: { name: `d-${i}`, namespace: 'ns', annotations: { note: 'n'.repeat(300) } },
        spec: { replicas: i, selector: { matchLabels: { app: 'a' } }, template: { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
      })),
    },
  },
];

for (const c of cases) {
  test(`encodeListPieces equals encodeObject: ${c.name}`, () => {
    const want = Buffer.from(encodeObject(c.list));
    const got = encodeListPieces({ apiVersion: c.list.apiVersion as string, kind: c.list.kind as string, metadata: c.list['metadata'], items: c.list.items });
    assert.ok(got, 'the list has the <Kind>List shape');
    assert.equal(got.byteLength, want.length);
    assert.equal(joined(got.pieces).toString('hex'), want.toString('hex'));
    assert.ok(got.pieces.length >= 2 * c.list.items.length, 'one piece or more per item, not one body');
    assert.equal(decodeObject(joined(got.pieces)).kind, c.list.kind);
  });
}

test('encodeListPieces without metadata writes the zero ListMeta, as encodeObject does', () => {
  const list = { kind: 'ConfigMapList', apiVersion: 'v1', items: [configMap(1)] };
  const got = encodeListPieces({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: undefined, items: list.items });
  assert.ok(got);
  assert.ok(joined(got.pieces).equals(Buffer.from(encodeObject(list))));
});

test('encodeListPieces declines a list whose items field is not last, before reading items', () => {
  let read = false;
  const items = {
    *[Symbol.iterator]() {
      read = true;
      yield {};
    },
  };
  // meta.k8s.io/v1beta1's PartialObjectMetadataList numbers items 1 and metadata 2.
  assert.equal(encodeListPieces({ apiVersion: 'meta.k8s.io/v1beta1', kind: 'PartialObjectMetadataList', metadata: {}, items }), undefined);
  assert.equal(read, false);
});

test('encodeListPieces throws as encodeObject does for a kind without a message', () => {
  assert.throws(() => encodeListPieces({ apiVersion: 'example.com/v1', kind: 'WidgetList', metadata: {}, items: [] }), /no protobuf message/);
});
