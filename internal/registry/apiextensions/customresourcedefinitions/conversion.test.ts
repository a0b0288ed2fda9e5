import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../api/meta/types.js';
import { crdV1Conversion } from './conversion.js';

const schema = { openAPIV3Schema: { type: 'object' } };

function crd(versions: unknown[], extra: Record<string, unknown> = {}): KubeObject {
  return {
    metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' }, scope: 'Namespaced', versions, ...extra },
  };
}

describe('CustomResourceDefinition v1 <-> stored v1beta1', () => {
  it('hoists what every version shares and pushes it back down when read', () => {
    const v1 = crd([
      { name: 'v1', served: true, storage: true, schema, subresources: { status: {} } },
      { name: 'v2', served: true, storage: false, schema, subresources: { status: {}, scale: { specReplicasPath: '.spec.r', statusReplicasPath: '.status.r' } } },
    ]);
    const stored = crdV1Conversion.toInternal(v1);
    const spec = stored.spec as Record<string, any>;
    assert.equal(spec.version, 'v1');
    assert.deepEqual(spec.validation, schema);
    assert.equal(spec.subresources, undefined);
    assert.deepEqual(spec.versions[0], { name: 'v1', served: true, storage: true, subresources: { status: {} } });
    assert.equal(spec.preserveUnknownFields, false);
    assert.deepEqual(crdV1Conversion.toExternal(stored), v1);
    assert.equal((v1.spec as Record<string, any>).version, undefined, 'input not mutated');
  });

  it('moves the conversion webhook and renames printer column paths', () => {
    const v1 = crd([{ name: 'v1', served: true, storage: true, schema, additionalPrinterColumns: [{ name: 'A', type: 'string', jsonPath: '.spec.a' }] }], {
      conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://x' }, conversionReviewVersions: ['v1'] } },
    });
    const stored = crdV1Conversion.toInternal(v1);
    const spec = stored.spec as Record<string, any>;
    assert.deepEqual(spec.conversion, { strategy: 'Webhook', webhookClientConfig: { url: 'https://x' }, conversionReviewVersions: ['v1'] });
    assert.deepEqual(spec.additionalPrinterColumns, [{ name: 'A', type: 'string', JSONPath: '.spec.a' }]);
    assert.deepEqual(crdV1Conversion.toExternal(stored), v1);
  });

  it('reads a v1beta1 object with only spec.version', () => {
    const stored: KubeObject = { metadata: { name: 'widgets.example.com' }, spec: { group: 'example.com', version: 'v1', validation: schema, preserveUnknownFields: true } };
    const v1 = crdV1Conversion.toExternal(stored);
    assert.deepEqual((v1.spec as Record<string, unknown>).versions, [{ name: 'v1', served: true, storage: true, schema }]);
    assert.equal((v1.spec as Record<string, unknown>).preserveUnknownFields, true);
  });
});
