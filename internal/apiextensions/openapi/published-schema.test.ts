import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONSchemaProps } from '../interface.js';
import { pruneDefaults, publishedSchema } from './published-schema.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    port: { 'x-kubernetes-int-or-string': true, description: 'port' },
    spelled: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
    withAnyOf: { 'x-kubernetes-int-or-string': true, anyOf: [{ maximum: 3 }, { pattern: 'x' }] },
    note: { type: 'string', nullable: true, default: 'n' },
    nullObject: { type: 'object', nullable: true, properties: { a: { type: 'string' } } },
    raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } } },
    list: { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'string' } },
    choice: { type: 'string', oneOf: [{ enum: ['a'] }], not: { enum: ['c'] }, allOf: [{ minLength: 1 }] },
    dropped: { type: 'string', example: 'e', $schema: 'x', id: 'i' } as JSONSchemaProps,
    mapOfNullable: { type: 'object', additionalProperties: { type: 'string', nullable: true }, required: ['k'] },
    bounds: { type: 'integer', minimum: 0, maximum: 10, exclusiveMaximum: true, exclusiveMinimum: false, multipleOf: 2, uniqueItems: false },
    checked: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self != ""' }] },
  },
  required: ['note', 'port'],
};

describe('published CRD schemas', () => {
  const v3 = publishedSchema(schema, false);
  const v2 = publishedSchema(schema, true);
  const p3 = v3.properties as Record<string, Record<string, unknown>>;
  const p2 = v2.properties as Record<string, Record<string, unknown>>;

  it('v3 keeps nullable, junctors and defaults, and unfolds int-or-string into anyOf', () => {
    assert.deepEqual(p3.port, { description: 'port', 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
    assert.deepEqual(p3.spelled?.anyOf, [{ type: 'integer' }, { type: 'string' }]);
    assert.equal(p3.spelled?.allOf, undefined);
    assert.deepEqual(p3.withAnyOf?.allOf, [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }]);
    assert.deepEqual(p3.note, { type: 'string', nullable: true, default: 'n' });
    assert.deepEqual(p3.choice, { type: 'string', oneOf: [{ enum: ['a'] }], not: { enum: ['c'] }, allOf: [{ minLength: 1 }] });
    assert.deepEqual(v3.required, ['note', 'port']);
    assert.deepEqual((p3.raw?.properties as Record<string, unknown>).a, { type: 'string' });
  });

  it('v2 drops junctors, untypes nullable and preserve-unknown-fields nodes, and unrequires nullable fields', () => {
    assert.deepEqual(p2.port, { description: 'port', 'x-kubernetes-int-or-string': true });
    assert.deepEqual(p2.note, { default: 'n' });
    assert.deepEqual(p2.nullObject, {});
    assert.deepEqual(p2.raw, { 'x-kubernetes-preserve-unknown-fields': true });
    assert.deepEqual(p2.list, { 'x-kubernetes-preserve-unknown-fields': true });
    assert.deepEqual(p2.choice, { type: 'string' });
    assert.deepEqual(v2.required, ['port']);
    assert.equal(p2.mapOfNullable?.required, undefined);
  });

  it('keeps only what kube structural schemas carry, with kube zero-value omission', () => {
    for (const s of [p2, p3]) {
      assert.deepEqual(s.dropped, { type: 'string' });
      assert.deepEqual(s.bounds, { type: 'integer', minimum: 0, maximum: 10, exclusiveMaximum: true, multipleOf: 2 });
      assert.deepEqual(s.checked, { type: 'string', 'x-kubernetes-validations': [{ rule: 'self != ""' }] });
    }
  });

  it('prunes defaults of schema nodes but not properties named default', () => {
    const s = { type: 'object', default: {}, properties: { default: { type: 'string', default: 'x' } }, items: { default: 1 } };
    pruneDefaults(s);
    assert.deepEqual(s, { type: 'object', properties: { default: { type: 'string' } }, items: {} });
  });

  it('never mutates the CRD schema', () => {
    const copy = structuredClone(schema);
    publishedSchema(schema, true);
    publishedSchema(schema, false);
    assert.deepEqual(schema, copy);
  });
});
