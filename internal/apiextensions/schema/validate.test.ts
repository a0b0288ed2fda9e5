import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { KubeObject } from '../../../api/meta/types.js';
import { fieldErrorMessage, invalid } from '../../validation/field-error.js';
import type { CelValidator, JSONSchemaProps } from '../interface.js';
import { appendCelErrors, celSkippedMessage, compileVersionSchema } from './index.js';

const field = (props: JSONSchemaProps): JSONSchemaProps => ({ type: 'object', properties: { field: props } });

function messages(schema: JSONSchemaProps, obj: unknown, old?: unknown, ratcheting = false): string[] {
  const vs = compileVersionSchema(schema);
  return vs.validate(obj as KubeObject, old as KubeObject | undefined, { ratcheting }).map(fieldErrorMessage);
}

interface Case {
  readonly name: string;
  readonly schema: JSONSchemaProps;
  readonly obj: unknown;
  readonly want: readonly string[];
}

// Expected texts follow kube's apiextensions validation tests and kube-openapi's messages.
const cases: Case[] = [
  { name: 'not nullable: string for object', schema: field({ type: 'object' }), obj: { field: 'foo' }, want: ['field: Invalid value: "string": field in body must be of type object: "string"'] },
  { name: 'not nullable: integer for object', schema: field({ type: 'object' }), obj: { field: 42 }, want: ['field: Invalid value: "integer": field in body must be of type object: "integer"'] },
  { name: 'not nullable: number for object', schema: field({ type: 'object' }), obj: { field: 1.2 }, want: ['field: Invalid value: "number": field in body must be of type object: "number"'] },
  { name: 'not nullable: null', schema: field({ type: 'object' }), obj: { field: null }, want: ['field: Invalid value: "null": field in body must be of type object: "null"'] },
  { name: 'nullable: null accepted', schema: field({ type: 'object', nullable: true }), obj: { field: null }, want: [] },
  { name: 'nullable: array refused', schema: field({ type: 'object', nullable: true }), obj: { field: [] }, want: ['field: Invalid value: "array": field in body must be of type object: "array"'] },
  { name: 'nullable without type accepts anything', schema: field({ nullable: true }), obj: { field: [1] }, want: [] },
  { name: 'int-or-string: 42', schema: field({ 'x-kubernetes-int-or-string': true }), obj: { field: 42 }, want: [] },
  { name: 'int-or-string: "foo"', schema: field({ 'x-kubernetes-int-or-string': true }), obj: { field: 'foo' }, want: [] },
  { name: 'int-or-string: 1.2', schema: field({ 'x-kubernetes-int-or-string': true }), obj: { field: 1.2 }, want: ['field: Invalid value: "number": field in body must be of type integer,string: "number"'] },
  { name: 'int-or-string: null', schema: field({ 'x-kubernetes-int-or-string': true }), obj: { field: null }, want: ['field: Invalid value: "null": field in body must be of type integer,string: "null"'] },
  {
    name: 'int-or-string with anyOf',
    schema: field({ nullable: true, 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }),
    obj: { field: true },
    want: [
      'field: Invalid value: "boolean": field in body must be of type integer,string: "boolean"',
      '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
      'field: Invalid value: "boolean": field in body must be of type integer: "boolean"',
    ],
  },
  {
    name: 'int-or-string with allOf of anyOf',
    schema: field({ nullable: true, 'x-kubernetes-int-or-string': true, allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }] }),
    obj: { field: [] },
    want: [
      'field: Invalid value: "array": field in body must be of type integer,string: "array"',
      '<nil>: Invalid value: "": "field" must validate all the schemas (allOf). None validated',
      '<nil>: Invalid value: "": "field" must validate at least one schema (anyOf)',
      'field: Invalid value: "array": field in body must be of type integer: "array"',
    ],
  },
  {
    name: 'oneOf: none valid',
    schema: field({ type: 'string', oneOf: [{ minLength: 3 }, { pattern: '^x' }] }),
    obj: { field: 'ab' },
    want: ['<nil>: Invalid value: "": "field" must validate one and only one schema (oneOf). Found none valid', 'field: Invalid value: "ab": field in body should be at least 3 chars long'],
  },
  {
    name: 'oneOf: two valid',
    schema: field({ type: 'string', oneOf: [{ minLength: 3 }, { pattern: '^x' }] }),
    obj: { field: 'xyz' },
    want: ['<nil>: Invalid value: "": "field" must validate one and only one schema (oneOf). Found 2 valid alternatives'],
  },
  { name: 'not', schema: field({ type: 'string', not: { pattern: '^x' } }), obj: { field: 'xy' }, want: ['<nil>: Invalid value: "": "field" must not validate the schema (not)'] },
  {
    name: 'required at two levels',
    schema: { type: 'object', required: ['field'], properties: { field: { type: 'object', required: ['nested'], properties: { nested: {} } } } },
    obj: { test: 'a' },
    want: ['field: Required value'],
  },
  {
    name: 'required nested',
    schema: { type: 'object', required: ['field'], properties: { field: { type: 'object', required: ['nested'], properties: { nested: {} } } } },
    obj: { field: {} },
    want: ['field.nested: Required value'],
  },
  {
    name: 'enum and type errors, property order',
    schema: field({
      type: 'object',
      required: ['nestedint', 'nestedstring'],
      properties: { nestedint: { type: 'integer', enum: [1, 2] }, nestedstring: { type: 'string', enum: ['a', 'b'] } },
    }),
    obj: { field: { nestedint: 'x', nestedstring: true } },
    want: [
      'field.nestedint: Invalid value: "string": field.nestedint in body must be of type integer: "string"',
      'field.nestedint: Unsupported value: "x": supported values: "1", "2"',
      'field.nestedstring: Invalid value: "boolean": field.nestedstring in body must be of type string: "boolean"',
      'field.nestedstring: Unsupported value: true: supported values: "a", "b"',
    ],
  },
  { name: 'enum with null (nullable)', schema: field({ type: 'string', nullable: true, enum: ['a'] }), obj: { field: null }, want: ['field: Unsupported value: "null": supported values: "a"'] },
  {
    name: 'enum with an object value',
    schema: field({ type: 'object', enum: [{ a: 1 }] }),
    obj: { field: { b: 'x', a: 2 } },
    want: ['field: Unsupported value: map[string]interface {}{"a":2, "b":"x"}: supported values: "{\\"a\\":1}"'],
  },
  { name: 'maxProperties', schema: field({ type: 'object', maxProperties: 2 }), obj: { field: { a: true, b: true, c: true } }, want: ['field: Too many: 3: must have at most 2 items'] },
  {
    name: 'maxProperties stops the object',
    schema: field({ type: 'object', maxProperties: 1, required: ['z'], properties: { a: { type: 'string' } } }),
    obj: { field: { a: 1, b: true } },
    want: ['field: Too many: 2: must have at most 1 item'],
  },
  { name: 'minProperties', schema: field({ type: 'object', minProperties: 2 }), obj: { field: { a: 1 } }, want: ['field: Invalid value: 1: field in body should have at least 2 properties'] },
  { name: 'maxItems', schema: field({ type: 'array', maxItems: 2 }), obj: { field: ['a', 'b', 'c'] }, want: ['field: Too many: 3: must have at most 2 items'] },
  { name: 'minItems', schema: field({ type: 'array', minItems: 2 }), obj: { field: ['a'] }, want: ['field: Invalid value: 1: field in body should have at least 2 items'] },
  { name: 'uniqueItems', schema: field({ type: 'array', uniqueItems: true }), obj: { field: [1, 1] }, want: [`field: Invalid value: "": field in body shouldn't contain duplicates`] },
  { name: 'maxLength', schema: field({ type: 'string', maxLength: 2 }), obj: { field: 'abc' }, want: ['field: Too long: may not be more than 2 bytes'] },
  { name: 'maxLength counts code points', schema: field({ type: 'string', maxLength: 2 }), obj: { field: 'é😀' }, want: [] },
  { name: 'minLength', schema: field({ type: 'string', minLength: 3 }), obj: { field: 'ab' }, want: ['field: Invalid value: "ab": field in body should be at least 3 chars long'] },
  { name: 'pattern', schema: field({ type: 'string', pattern: '^[a-z]+$' }), obj: { field: 'A1' }, want: [`field: Invalid value: "A1": field in body should match '^[a-z]+$'`] },
  { name: 'pattern with RE2 flags', schema: field({ type: 'string', pattern: '(?i)^[a-z]+\\z' }), obj: { field: 'AbC' }, want: [] },
  { name: 'minimum', schema: field({ type: 'integer', minimum: 1 }), obj: { field: 0 }, want: ['field: Invalid value: 0: field in body should be greater than or equal to 1'] },
  { name: 'exclusiveMinimum', schema: field({ type: 'integer', minimum: 1, exclusiveMinimum: true }), obj: { field: 1 }, want: ['field: Invalid value: 1: field in body should be greater than 1'] },
  { name: 'maximum', schema: field({ type: 'number', maximum: 1.5 }), obj: { field: 2 }, want: ['field: Invalid value: 2: field in body should be less than or equal to 1.5'] },
  { name: 'exclusiveMaximum', schema: field({ type: 'number', maximum: 2, exclusiveMaximum: true }), obj: { field: 2 }, want: ['field: Invalid value: 2: field in body should be less than 2'] },
  { name: 'multipleOf', schema: field({ type: 'integer', multipleOf: 5 }), obj: { field: 7 }, want: ['field: Invalid value: 7: field in body should be a multiple of 5'] },
  { name: 'multipleOf with a fraction', schema: field({ type: 'number', multipleOf: 0.1 }), obj: { field: 0.3 }, want: [] },
  { name: 'integer refuses a fraction', schema: field({ type: 'integer' }), obj: { field: 1.5 }, want: ['field: Invalid value: "number": field in body must be of type integer: "number"'] },
  { name: 'int32 is not range-checked (as in kube)', schema: field({ type: 'integer', format: 'int32' }), obj: { field: 3000000000 }, want: [] },
  { name: 'format uuid', schema: field({ type: 'string', format: 'uuid' }), obj: { field: 'nope' }, want: ['field: Invalid value: "nope": field in body must be of type uuid: "nope"'] },
  { name: 'unknown format ignored', schema: field({ type: 'string', format: 'k8s-name' }), obj: { field: 'Nope!' }, want: [] },
  { name: 'additionalProperties schema', schema: field({ type: 'object', additionalProperties: { type: 'integer' } }), obj: { field: { a: 1, b: 'x' } }, want: ['field.b: Invalid value: "string": field.b in body must be of type integer: "string"'] },
  { name: 'additionalProperties false', schema: field({ type: 'object', additionalProperties: false, properties: { a: {} } }), obj: { field: { a: 1, b: 2 } }, want: ['field: Invalid value: "b": field.b in body is a forbidden property'] },
  {
    name: 'kube paths and order in lists',
    schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          required: ['replicas'],
          properties: {
            replicas: { type: 'integer', minimum: 1 },
            items: { type: 'array', maxItems: 2, items: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 5 } } } },
          },
        },
      },
    },
    obj: { spec: { items: [{ name: 'ok' }, { name: 'toolong' }, {}] } },
    want: ['spec.items[1].name: Too long: may not be more than 5 bytes', 'spec.items[2].name: Required value', 'spec.items: Too many: 3: must have at most 2 items', 'spec.replicas: Required value'],
  },
  {
    name: 'spec.replicas of the wrong type',
    schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer', minimum: 1 } } } } },
    obj: { spec: { replicas: 'string' } },
    want: ['spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"'],
  },
  {
    name: 'list-type set duplicates',
    schema: field({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } }),
    obj: { field: ['a', 'b', 'a', 'b', 'a'] },
    want: ['field[2]: Duplicate value: "a"', 'field[3]: Duplicate value: "b"'],
  },
  {
    name: 'list-type map duplicate keys',
    schema: field({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name', 'port'],
      items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
    }),
    obj: { field: [{ name: 'a', port: 1 }, { name: 'a', port: 2 }, { name: 'a', port: 1 }] },
    want: ['field[2]: Duplicate value: map[string]interface {}{"name":"a", "port":1}'],
  },
  {
    name: 'embedded resource',
    schema: field({ type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }),
    obj: { field: { kind: '', metadata: { name: 'a/b', labels: { 'a b': 'x' } } } },
    want: [
      'field.apiVersion: Required value: must not be empty',
      'field.kind: Invalid value: "": must not be empty',
      `field.metadata.name: Invalid value: "a/b": may not contain '/'`,
      `field.metadata.labels: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ],
  },
  {
    name: 'embedded resource apiVersion',
    schema: field({ type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }),
    obj: { field: { apiVersion: 'a/b/c', kind: 'K' } },
    want: ['field.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c'],
  },
];

describe('VersionSchema.validate', () => {
  for (const c of cases) {
    test(c.name, () => {
      assert.deepEqual(messages(c.schema, c.obj), c.want);
    });
  }

  test('cause types follow kube (TypeInvalid, Required, NotSupported, TooLong, TooMany)', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      required: ['r'],
      properties: { t: { type: 'integer' }, e: { type: 'string', enum: ['a'] }, l: { type: 'string', maxLength: 1 }, m: { type: 'array', maxItems: 0 }, p: { type: 'string', pattern: 'x' } },
    };
    const errs = compileVersionSchema(schema).validate({ t: 's', e: 'b', l: 'ab', m: [1], p: 'y' } as unknown as KubeObject, undefined, { ratcheting: false });
    assert.deepEqual(
      errs.map((e) => [e.field, e.type]),
      [
        ['t', 'FieldValueTypeInvalid'],
        ['e', 'FieldValueNotSupported'],
        ['l', 'FieldValueTooLong'],
        ['m', 'FieldValueTooMany'],
        ['p', 'FieldValueInvalid'],
        ['r', 'FieldValueRequired'],
      ],
    );
  });
});

describe('keys named like JavaScript machinery', () => {
  test('a required property named __proto__ is required: an object without it as an own key is refused', () => {
    const schema = field({ type: 'object', required: ['__proto__', 'constructor'], properties: JSON.parse('{"__proto__":{"type":"integer"},"constructor":{"type":"string"}}') });
    assert.deepEqual(messages(schema, { field: {} }), ['field.__proto__: Required value', 'field.constructor: Required value']);
    assert.deepEqual(messages(schema, { field: JSON.parse('{"__proto__":1,"constructor":"c"}') }), []);
    assert.deepEqual(messages(schema, { field: JSON.parse('{"__proto__":"one","constructor":"c"}') }), ['field.__proto__: Invalid value: "string": field.__proto__ in body must be of type integer: "string"']);
  });
});

describe('ratcheting', () => {
  const schema: JSONSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          name: { type: 'string', maxLength: 3 },
          other: { type: 'string', maxLength: 3 },
          byKey: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['k'],
            items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'string', maxLength: 1 } } },
          },
          atomic: { type: 'array', items: { type: 'string', maxLength: 1 } },
        },
      },
    },
  };
  const old = { spec: { name: 'toolong', other: 'ok', byKey: [{ k: 'a', v: 'xx' }], atomic: ['xx'] } };

  test('unchanged invalid values are kept when ratcheting is on', () => {
    const obj = { spec: { name: 'toolong', other: 'new', byKey: [{ k: 'b', v: 'y' }, { k: 'a', v: 'xx' }], atomic: ['xx'] } };
    assert.deepEqual(messages(schema, obj, old, true), []);
  });

  test('without the gate every error is reported', () => {
    const obj = { spec: { name: 'toolong', other: 'new', byKey: [{ k: 'a', v: 'xx' }], atomic: ['xx'] } };
    assert.deepEqual(messages(schema, obj, old, false), [
      'spec.name: Too long: may not be more than 3 bytes',
      'spec.byKey[0].v: Too long: may not be more than 1 byte',
      'spec.atomic[0]: Too long: may not be more than 1 byte',
    ]);
  });

  test('changed values are still checked', () => {
    const obj = { spec: { name: 'toolong2', other: 'toolong', byKey: [{ k: 'a', v: 'zz' }], atomic: ['xx', 'y'] } };
    assert.deepEqual(messages(schema, obj, old, true), [
      'spec.name: Too long: may not be more than 3 bytes',
      'spec.other: Too long: may not be more than 3 bytes',
      'spec.byKey[0].v: Too long: may not be more than 1 byte',
      'spec.atomic[0]: Too long: may not be more than 1 byte',
    ]);
  });

  test('list uniqueness is not checked when the old object already broke it', () => {
    const s = field({ type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } });
    assert.deepEqual(messages(s, { field: ['a', 'a', 'b', 'b'] }, { field: ['a', 'a'] }), []);
    assert.deepEqual(messages(s, { field: ['a', 'a'] }, { field: ['a'] }), ['field[1]: Duplicate value: "a"']);
  });
});

describe('CEL errors', () => {
  const cel: CelValidator = { validate: () => [invalid('spec', 'object', 'failed rule: self.a')] };
  const obj = {} as KubeObject;

  test('run after schema errors that do not block them', () => {
    const errs = appendCelErrors([invalid('spec.x', 1, 'x')], cel, obj, undefined, { ratcheting: false });
    assert.deepEqual(errs.map(fieldErrorMessage), ['spec.x: Invalid value: 1: x', 'spec: Invalid value: "object": failed rule: self.a']);
  });

  test('are replaced by kube\'s notice when a blocking error exists', () => {
    const blocking = compileVersionSchema(field({ type: 'integer' })).validate({ field: 'x' } as unknown as KubeObject, undefined, { ratcheting: false });
    const errs = appendCelErrors(blocking, cel, obj, undefined, { ratcheting: false });
    assert.equal(fieldErrorMessage(errs.at(-1)!), `<nil>: Invalid value: "null": ${celSkippedMessage}`);
    assert.equal(errs.length, 2);
  });
});
