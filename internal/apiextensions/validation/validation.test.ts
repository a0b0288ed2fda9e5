import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { messages } from '../../registry/shared/testing-messages.js';
import { invalid } from '../../validation/field-error.js';
import type { JSONSchemaProps, VersionSchema } from '../interface.js';
import { cases } from './cases.test-data.js';
import { validateDefaults } from './defaults.js';
import {
  structuralSchemaErrors,
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionStatusUpdate,
  validateCustomResourceDefinitionUpdate,
} from './index.js';
import { specSchema, stored, v1CRD } from './test-crd.js';

const established = (crd: KubeObject): KubeObject => ({ ...crd, status: { ...(crd.status as object), conditions: [{ type: 'Established', status: 'True' }] } });

describe('CustomResourceDefinition validation (create)', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(messages(validateCustomResourceDefinition(stored(v1CRD(c.edit)))), c.want);
    });
  }

  it('gives kube cause types', () => {
    const errs = validateCustomResourceDefinition(
      stored(
        v1CRD((c) => {
          c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size = {};
          c.spec.versions[0].schema.openAPIV3Schema.properties.spec.allOf = [{ type: 'object' }];
          c.spec.scope = 'x';
        }),
      ),
    );
    assert.deepEqual(
      errs.map((e) => e.type),
      ['FieldValueNotSupported', 'FieldValueForbidden', 'FieldValueRequired'],
    );
  });

  it('requires a schema in every version and a storage version recorded', () => {
    const crd = stored(v1CRD((c) => delete c.spec.versions[0].schema));
    assert.deepEqual(messages(validateCustomResourceDefinition(crd)), ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required']);
    const noStorage = stored(v1CRD((c) => (c.spec.versions[0].storage = false)));
    assert.deepEqual(messages(validateCustomResourceDefinition(noStorage)), [
      'spec.versions: Invalid value: [{"name":"v1","served":true,"storage":false}]: must have exactly one version marked as storage version',
      'status.storedVersions: Invalid value: []string(nil): must have at least one stored version',
    ]);
  });

  it('accepts a rich valid CRD: two versions, status and scale, columns, selectable fields, webhook conversion', () => {
    const crd = v1CRD((c) => {
      const schema: any = specSchema({
        replicas: { type: 'integer', default: 1, minimum: 0 },
        name: { type: 'string', enum: ['a', 'b'] },
        port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: { type: 'object', required: ['port'], properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } } },
        },
        labels: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      });
      schema.openAPIV3Schema.properties.status = { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } };
      schema.openAPIV3Schema.properties.metadata = { type: 'object', properties: { name: { type: 'string', maxLength: 40 } } };
      const common = {
        schema,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
        additionalPrinterColumns: [{ name: 'Replicas', type: 'integer', format: 'int32', jsonPath: '.spec.replicas', priority: 0 }],
        selectableFields: [{ jsonPath: '.spec.name' }],
      };
      c.spec.versions = [
        { name: 'v1', served: true, storage: true, ...common },
        { name: 'v2beta1', served: true, storage: false, deprecated: true, deprecationWarning: 'v2beta1 is going away', ...structuredClone(common) },
      ];
      c.spec.versions[1].schema.openAPIV3Schema.properties.spec.properties.extra = { type: 'boolean' };
      c.spec.names.shortNames = ['wd'];
      c.spec.names.categories = ['all'];
      c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'default', name: 'conv', path: '/convert' } }, conversionReviewVersions: ['v1'] } };
    });
    assert.deepEqual(messages(validateCustomResourceDefinition(stored(crd))), []);
  });
});

describe('CustomResourceDefinition validation (update)', () => {
  it('keeps group and plural always, and scope and kind once Established', () => {
    const old = established(stored(v1CRD()));
    const changed = stored(
      v1CRD((c) => {
        c.spec.scope = 'Cluster';
        c.spec.names.kind = 'Gadget';
        c.spec.names.listKind = 'GadgetList';
      }),
    );
    assert.deepEqual(messages(validateCustomResourceDefinitionUpdate(changed, old)), [
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.names.kind: Invalid value: "Gadget": field is immutable',
    ]);
    assert.deepEqual(messages(validateCustomResourceDefinitionUpdate(changed, stored(v1CRD()))), []);
    const regrouped = stored(
      v1CRD((c) => {
        c.spec.group = 'example.org';
        c.spec.names.plural = 'gizmos';
        c.metadata.name = 'gizmos.example.org';
      }),
    );
    assert.deepEqual(messages(validateCustomResourceDefinitionUpdate(regrouped, old)), [
      'spec.group: Invalid value: "example.org": field is immutable',
      'spec.names.plural: Invalid value: "gizmos": field is immutable',
    ]);
  });

  it('keeps stored versions in spec.versions until migrated away', () => {
    const old = stored(v1CRD());
    const next = stored(v1CRD((c) => (c.spec.versions = [{ ...c.spec.versions[0], name: 'v2' }])));
    (next.status as Record<string, unknown>).storedVersions = ['v1', 'v2'];
    assert.deepEqual(messages(validateCustomResourceDefinitionUpdate(next, old)), [
      'status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions',
    ]);
  });

  it('lets a legacy CRD with preserveUnknownFields and a non-structural schema stay so', () => {
    const legacy = stored(v1CRD((c) => (c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size = { description: 'untyped' })));
    (legacy.spec as Record<string, unknown>).preserveUnknownFields = true;
    const next = structuredClone(legacy);
    ((next.spec as any).validation.openAPIV3Schema.properties.spec.properties as Record<string, unknown>).more = { description: 'also untyped' };
    assert.deepEqual(messages(validateCustomResourceDefinitionUpdate(next, legacy)), []);
    // A new CRD may not be created like that.
    assert.deepEqual(messages(validateCustomResourceDefinition(next)), [
      'spec.validation.openAPIV3Schema.properties[spec].properties[more].type: Required value: must not be empty for specified object fields',
      'spec.validation.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields',
      'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ]);
  });

  it('lets an unparseable caBundle stay only where it already was, once Established', () => {
    const withBundle = (ca: string) =>
      stored(
        v1CRD((c) => {
          c.spec.conversion = { strategy: 'Webhook', webhook: { clientConfig: { url: 'https://conv.example.com/x', caBundle: ca }, conversionReviewVersions: ['v1'] } };
        }),
      );
    const bad = Buffer.from('not a certificate').toString('base64');
    assert.deepEqual(messages(validateCustomResourceDefinition(withBundle(bad))), []);
    assert.deepEqual(messages(validateCustomResourceDefinitionUpdate(withBundle(bad), established(stored(v1CRD())))), [
      `spec.conversion.webhookClientConfig.caBundle: Invalid value: "${bad}": unable to load root certificates: unable to parse bytes as PEM block`,
    ]);
    assert.deepEqual(messages(validateCustomResourceDefinitionUpdate(withBundle(bad), established(withBundle(bad)))), []);
  });

  it('checks accepted names on status updates', () => {
    const crd = stored(v1CRD());
    crd.status = { storedVersions: ['v1'], acceptedNames: { plural: 'Widgets', kind: 'Widget', listKind: 'Widget' } };
    assert.deepEqual(messages(validateCustomResourceDefinitionStatusUpdate(crd)), [
      "status.acceptedNames.plural: Invalid value: \"Widgets\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      'status.acceptedNames.listKind: Invalid value: "Widget": kind and listKind may not be the same',
    ]);
  });
});

describe('NonStructuralSchema findings', () => {
  it('reports violations with v1 paths, and nothing for a structural CRD', () => {
    assert.equal(structuralSchemaErrors(v1CRD()), undefined);
    const crd = v1CRD((c) => {
      c.spec.preserveUnknownFields = true;
      c.spec.versions.push({ name: 'v2', served: true, storage: false, schema: specSchema({ a: {} }) });
    });
    assert.deepEqual(structuralSchemaErrors(crd)?.message, '[spec.preserveUnknownFields: Invalid value: true: must be false, spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[a].type: Required value: must not be empty for specified object fields]');
    assert.equal(structuralSchemaErrors(crd)?.reason, 'Violations');
    const single = v1CRD((c) => (c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.b = {}));
    const expected = 'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[b].type: Required value: must not be empty for specified object fields';
    assert.equal(structuralSchemaErrors(single)?.message, expected);
    assert.equal(structuralSchemaErrors(stored(single))?.message, expected, 'the stored form is read as v1');
    const refd = v1CRD((c) => (c.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.a = { $ref: '#/x' }));
    assert.deepEqual(structuralSchemaErrors(refd), { reason: 'StructuralError', message: "failed to check validation schema for version v1: OpenAPIV3Schema '$ref' is not supported", errors: [] });
  });
});

describe('schema defaults', () => {
  /** A fake compiled schema: prunes a field named "unknown", and calls a default of 13 invalid. */
  const fake = (s: JSONSchemaProps): VersionSchema => ({
    schema: s,
    prune(obj) {
      const removed: string[] = [];
      for (const [k, v] of Object.entries(obj)) {
        if (v && typeof v === 'object' && 'unknown' in v) {
          delete (v as Record<string, unknown>).unknown;
          removed.push(`${k}.unknown`);
        }
      }
      return removed;
    },
    applyDefaults: () => undefined,
    validate: (obj) => Object.entries(obj).filter(([, v]) => v === 13).map(([k]) => invalid(k, 13, `${k} in body should be less than or equal to 12`)),
    typeResolver: undefined as never,
  });

  it('reports unknown fields and invalid values at the default, through the schema compiler', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            obj: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', unknown: 'y' } },
            n: { type: 'integer', maximum: 12, default: 13 },
            ok: { type: 'integer', default: 1 },
            labels: { type: 'object', additionalProperties: { type: 'string', default: 'ignored' } },
          },
        },
      },
    };
    assert.deepEqual(messages(validateDefaults(schema, 'spec.validation.openAPIV3Schema', true, fake)), [
      'spec.validation.openAPIV3Schema.properties[spec].properties[obj].default: Invalid value: {"a":"x","unknown":"y"}: must not have unknown fields',
      'spec.validation.openAPIV3Schema.properties[spec].properties[n].default: Invalid value: 13: spec.validation.openAPIV3Schema.properties[spec].properties[n].default in body should be less than or equal to 12',
    ]);
    assert.deepEqual(messages(validateDefaults(schema, 'x', false, fake)).length, 1);
  });
});
