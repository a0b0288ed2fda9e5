import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { defaultFeatureGates, parseFeatureGates } from '../../../features/gates.js';
import { dropDisabledPodFields } from './disabled-fields.js';

const pod = (resources?: unknown): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }], ...(resources ? { resources } : {}) } }) as KubeObject;

describe('pods: fields of disabled alpha features', () => {
  const resources = { limits: { cpu: '1' } };

  it('drops spec.resources with PodLevelResources off (kube 1.33 default), unless the stored pod uses it', () => {
    const created = pod(resources);
    dropDisabledPodFields(created, undefined, defaultFeatureGates);
    assert.equal((created as unknown as { spec: { resources?: unknown } }).spec.resources, undefined);
    const updated = pod(resources);
    dropDisabledPodFields(updated, pod(resources), defaultFeatureGates);
    assert.deepEqual((updated as unknown as { spec: { resources?: unknown } }).spec.resources, resources);
  });

  it('keeps spec.resources with the gate on', () => {
    const created = pod(resources);
    dropDisabledPodFields(created, undefined, parseFeatureGates(['PodLevelResources=true']));
    assert.deepEqual((created as unknown as { spec: { resources?: unknown } }).spec.resources, resources);
  });
});
