import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { restoreObjectMeta, validateConvertedObject } from './converted-object.js';

const original = {
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'a', namespace: 'ns', uid: 'u', resourceVersion: '9', labels: { app: 'x' }, annotations: { keep: 'me' }, finalizers: ['f'] },
  spec: {},
} as unknown as KubeObject;

describe('converted object checks', () => {
  it('refuses changed kind, name, namespace or uid with kube texts', () => {
    const m = original.metadata as Record<string, unknown>;
    assert.equal(validateConvertedObject(original, { kind: 'Other', metadata: m }), 'must have the same kind: Widget != Other');
    assert.equal(validateConvertedObject(original, { kind: 'Widget', metadata: { ...m, namespace: 'other' } }), 'must have the same namespace: ns != other');
    assert.equal(validateConvertedObject(original, { kind: 'Widget', metadata: { ...m, uid: 'v' } }), 'must have the same UID: u != v');
    assert.equal(validateConvertedObject(original, { kind: 'Widget', metadata: { name: 'a', namespace: 'ns', uid: 'u' } }), undefined);
  });

  it('restores metadata except labels and annotations, without touching either input', () => {
    const converted = { apiVersion: 'example.com/v2', kind: 'Widget', metadata: { name: 'a', resourceVersion: '1', labels: { app: 'y' } }, spec: { n: 1 } };
    const before = structuredClone(converted);
    const r = restoreObjectMeta(original, converted);
    assert.ok('object' in r);
    assert.deepEqual(r.object.metadata, { name: 'a', namespace: 'ns', uid: 'u', resourceVersion: '9', labels: { app: 'y' }, finalizers: ['f'] });
    assert.deepEqual(r.object.spec, { n: 1 });
    assert.deepEqual(converted, before);
    assert.deepEqual((original.metadata as Record<string, unknown>).annotations, { keep: 'me' });
  });

  it('refuses malformed metadata with kube texts', () => {
    const err = (c: Record<string, unknown>) => {
      const r = restoreObjectMeta(original, c);
      return 'error' in r ? r.error : undefined;
    };
    assert.equal(err({ kind: 'Widget' }), 'missing metadata in converted object');
    assert.equal(err({ kind: 'Widget', metadata: 'x' }), 'invalid metadata of type string in converted object');
    assert.equal(err({ kind: 'Widget', metadata: { labels: ['a'] } }), 'invalid metadata.labels of type []interface {} in converted object');
    assert.equal(err({ kind: 'Widget', metadata: { labels: { a: 1 } } }), 'metadata.labels[a] must be a string, but is int64 in converted object');
    assert.match(err({ kind: 'Widget', metadata: { annotations: { 'Bad Key': 'v' } } }) ?? '', /^metadata\.annotation: Invalid value: "Bad Key": /);
  });
});
