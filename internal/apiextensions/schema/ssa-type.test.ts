import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { KubeObject } from '../../../api/meta/types.js';
import { applyObject } from '../../fieldmanager/managed-fields.js';
import type { JSONSchemaProps } from '../interface.js';
import { compileVersionSchema } from './index.js';

const gvk = { group: 'example.com', version: 'v1', kind: 'Widget' };
const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
        args: { type: 'array', items: { type: 'string' } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string' } },
      },
    },
  },
};
const now = new Date('2024-01-01T00:00:00Z');

function apply(live: KubeObject | undefined, applied: object, manager: string): KubeObject {
  const { typeResolver } = compileVersionSchema(schema, { kind: 'Widget' });
  const body = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, ...applied } as KubeObject;
  return applyObject(typeResolver, gvk, live, body, manager, false, '', now);
}

describe('typeResolver (server-side apply with the schema)', () => {
  test('map lists merge by key, sets by value, granular maps merge; atomic lists and maps belong to one manager', () => {
    const first = apply(undefined, { spec: { ports: [{ name: 'a', port: 1 }], tags: ['x'], args: ['1'], labels: { a: '1' }, selector: { a: '1' } } }, 'one');
    const second = apply(first, { spec: { ports: [{ name: 'b', port: 2 }], tags: ['y'], labels: { b: '2' } } }, 'two');
    const spec = (second as unknown as { spec: Record<string, unknown> }).spec;
    assert.deepEqual(spec['ports'], [{ name: 'a', port: 1 }, { name: 'b', port: 2 }]);
    assert.deepEqual(spec['tags'], ['x', 'y']);
    assert.deepEqual(spec['labels'], { a: '1', b: '2' });
    assert.deepEqual(spec['args'], ['1']);
    assert.throws(
      () => apply(second, { spec: { args: ['2'], selector: { b: '2' } } }, 'two'),
      (err: Error) => err.message.includes('.spec.args') && err.message.includes('.spec.selector'),
    );
  });

  test('map-list entries are owned by key: conflicts name the entry, the owner updates it in place', () => {
    const first = apply(undefined, { spec: { ports: [{ name: 'a', port: 1 }, { name: 'b', port: 2 }] } }, 'one');
    assert.throws(() => apply(first, { spec: { ports: [{ name: 'b', port: 3 }] } }, 'two'), {
      message: 'Apply failed with 1 conflict: conflict with "one": .spec.ports[name="b"].port',
    });
    const second = apply(first, { spec: { ports: [{ name: 'b', port: 3 }] } }, 'one');
    assert.deepEqual((second as unknown as { spec: { ports: unknown } }).spec.ports, [{ name: 'b', port: 3 }]);
  });

  test('typeOf answers for the version\'s kind only and knows metadata as ObjectMeta', () => {
    const { typeResolver } = compileVersionSchema(schema, { kind: 'Widget' });
    assert.equal(typeResolver.typeOf({ ...gvk, kind: 'Other' }), undefined);
    const t = typeResolver.typeOf(gvk);
    assert.ok(t);
    const fields = t.schema.resolve(t.typeRef)?.map?.fields?.map((f) => f.name);
    assert.deepEqual(fields, ['spec', 'apiVersion', 'kind', 'metadata']);
  });
});

describe('typeResolver for embedded resources and untyped values', () => {
  test('an embedded resource carries apiVersion, kind and ObjectMeta; int-or-string is an untyped scalar', () => {
    const s: JSONSchemaProps = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
            port: { 'x-kubernetes-int-or-string': true },
          },
        },
      },
    };
    const t = compileVersionSchema(s, { kind: 'Widget' }).typeResolver.typeOf(gvk)!;
    const spec = t.schema.resolve(t.typeRef)!.map!.fields!.find((f) => f.name === 'spec')!;
    const specFields = t.schema.resolve(spec.type)!.map!.fields!;
    const template = specFields.find((f) => f.name === 'template')!;
    const templateFields = t.schema.resolve(template.type)!.map!.fields!;
    assert.deepEqual(templateFields.map((f) => f.name), ['spec', 'apiVersion', 'kind', 'metadata']);
    assert.deepEqual(templateFields.find((f) => f.name === 'metadata')!.type, { namedType: 'apimachinery.pkg.apis.meta.v1.ObjectMeta' });
    assert.deepEqual(specFields.find((f) => f.name === 'port')!.type, { inlined: { scalar: 'untyped' } });
  });
});
