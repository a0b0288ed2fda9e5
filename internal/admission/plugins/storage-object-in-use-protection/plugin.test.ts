import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { RequestContext } from '../../../request/context.js';
import { testAttributes } from '../test-attributes.js';
import { StorageObjectInUseProtection } from './plugin.js';

const ctx = {} as RequestContext;
const plugin = new StorageObjectInUseProtection();

describe('StorageObjectInUseProtection', () => {
  it('adds the pv and pvc protection finalizers once', async () => {
    const pv: KubeObject = { metadata: { name: 'v', finalizers: ['other'] } };
    await plugin.admit(testAttributes({ resource: 'persistentvolumes', namespace: '', object: pv }), ctx);
    assert.deepEqual(pv.metadata.finalizers, ['other', 'kubernetes.io/pv-protection']);
    const pvc: KubeObject = { metadata: { name: 'c', finalizers: ['kubernetes.io/pvc-protection'] } };
    await plugin.admit(testAttributes({ resource: 'persistentvolumeclaims', object: pvc }), ctx);
    assert.deepEqual(pvc.metadata.finalizers, ['kubernetes.io/pvc-protection']);
    const fresh: KubeObject = { metadata: { name: 'c' } };
    await plugin.admit(testAttributes({ resource: 'persistentvolumeclaims', object: fresh }), ctx);
    assert.deepEqual(fresh.metadata.finalizers, ['kubernetes.io/pvc-protection']);
  });

  it('leaves other resources and subresources alone', async () => {
    const pod: KubeObject = { metadata: { name: 'p' } };
    await plugin.admit(testAttributes({ resource: 'pods', object: pod }), ctx);
    const status: KubeObject = { metadata: { name: 'c' } };
    await plugin.admit(testAttributes({ resource: 'persistentvolumeclaims', subresource: 'status', object: status }), ctx);
    assert.equal(pod.metadata.finalizers, undefined);
    assert.equal(status.metadata.finalizers, undefined);
  });
});
