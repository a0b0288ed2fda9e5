import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import type { RequestContext } from '../../../request/context.js';
import { testAttributes } from '../test-attributes.js';
import { testInformer } from '../test-informer.js';
import { PersistentVolumeClaimResize } from './plugin.js';

const ctx = {} as RequestContext;
const plugin = new PersistentVolumeClaimResize(
  testInformer([{ metadata: { name: 'grow' }, allowVolumeExpansion: true } as KubeObject, { metadata: { name: 'fixed' } }]),
);
const claim = (cls: string, size: string, phase = 'Bound'): KubeObject =>
  ({ metadata: { name: 'c', resourceVersion: '3' }, spec: { storageClassName: cls, resources: { requests: { storage: size } } }, status: { phase } }) as KubeObject;
const update = (object: KubeObject, oldObject: KubeObject) => plugin.validate(testAttributes({ operation: 'UPDATE', resource: 'persistentvolumeclaims', object, oldObject }), ctx);

describe('PersistentVolumeClaimResize', () => {
  it('lets a bound claim of an expandable class grow, and any claim stay or shrink', async () => {
    await update(claim('grow', '2Gi'), claim('grow', '1Gi'));
    await update(claim('fixed', '1Gi'), claim('fixed', '2Gi'));
    await update(claim('fixed', '1Gi', 'Pending'), claim('fixed', '1Gi', 'Pending'));
  });

  it('refuses growth of unbound claims and of classes without allowVolumeExpansion, with kube messages', async () => {
    await assert.rejects(update(claim('grow', '2Gi', 'Pending'), claim('grow', '1Gi', 'Pending')), {
      code: 403,
      message: 'persistentvolumeclaims "c" is forbidden: Only bound persistent volume claims can be expanded',
    });
    const why = 'persistentvolumeclaims "c" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';
    await assert.rejects(update(claim('fixed', '2Gi'), claim('fixed', '1Gi')), { message: why });
    await assert.rejects(update(claim('missing', '2Gi'), claim('missing', '1Gi')), { message: why });
    await assert.rejects(update(claim('', '2Gi'), claim('', '1Gi')), { message: why });
  });
});
