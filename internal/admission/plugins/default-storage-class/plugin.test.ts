import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { RequestContext } from '../../../request/context.js';
import { testAttributes } from '../test-attributes.js';
import { testInformer } from '../test-informer.js';
import { DefaultStorageClass } from './plugin.js';

const ctx = {} as RequestContext;
const sc = (name: string, created: string, annotations?: Record<string, string>): KubeObject => ({
  metadata: { name, creationTimestamp: created, ...(annotations ? { annotations } : {}) },
});
const isDefault = { 'storageclass.kubernetes.io/is-default-class': 'true' };
const claim = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>) =>
  ({ metadata: { name: 'c', ...(annotations ? { annotations } : {}) }, spec: { ...spec } }) as KubeObject & { spec: { storageClassName?: string | null } };

describe('DefaultStorageClass', () => {
  const classes = testInformer([
    sc('old', '2024-01-01T00:00:00Z', isDefault),
    sc('b-new', '2025-01-01T00:00:00Z', isDefault),
    sc('a-new', '2025-01-01T00:00:00Z', { 'storageclass.beta.kubernetes.io/is-default-class': 'true' }),
    sc('newest-not-default', '2026-01-01T00:00:00Z', { 'storageclass.kubernetes.io/is-default-class': 'false' }),
  ]);
  const plugin = new DefaultStorageClass(classes);

  it('sets the newest default class, then the first by name', async () => {
    const pvc = claim();
    await plugin.admit(testAttributes({ resource: 'persistentvolumeclaims', object: pvc }), ctx);
    assert.equal(pvc.spec.storageClassName, 'a-new');
  });

  it('leaves claims that name a class (even "") or carry the beta annotation, and other resources', async () => {
    for (const pvc of [claim({ storageClassName: '' }), claim({ storageClassName: 'x' }), claim({}, { 'volume.beta.kubernetes.io/storage-class': '' })]) {
      const before = structuredClone(pvc);
      await plugin.admit(testAttributes({ resource: 'persistentvolumeclaims', object: pvc }), ctx);
      assert.deepEqual(pvc, before);
    }
    const other = claim();
    await plugin.admit(testAttributes({ resource: 'persistentvolumeclaims', subresource: 'status', object: other }), ctx);
    assert.equal(other.spec.storageClassName, undefined);
    const none = claim();
    await new DefaultStorageClass(testInformer([sc('x', '2024-01-01T00:00:00Z')])).admit(testAttributes({ resource: 'persistentvolumeclaims', object: none }), ctx);
    assert.equal(none.spec.storageClassName, undefined);
    assert.equal(plugin.handles('UPDATE'), false);
  });
});
