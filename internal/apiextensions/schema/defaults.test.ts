import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { JSONSchemaProps } from '../interface.js';
import { applyDefaults } from './defaults.js';
import { buildStructural } from './structural.js';

interface Case {
  readonly name: string;
  readonly schema: JSONSchemaProps;
  readonly obj: unknown;
  readonly want: unknown;
}

const cases: Case[] = [
  {
    name: 'missing fields get their default, present ones are kept',
    schema: { type: 'object', properties: { a: { type: 'integer', default: 1 }, b: { type: 'string', default: 'x' } } },
    obj: { b: 'mine' },
    want: { a: 1, b: 'mine' },
  },
  {
    name: 'a non-nullable null is replaced, a nullable null kept',
    schema: { type: 'object', properties: { a: { type: 'string', default: 'd' }, b: { type: 'string', nullable: true, default: 'd' } } },
    obj: { a: null, b: null },
    want: { a: 'd', b: null },
  },
  {
    name: 'defaults are defaulted in turn',
    schema: { type: 'object', properties: { spec: { type: 'object', default: {}, properties: { replicas: { type: 'integer', default: 3 } } } } },
    obj: {},
    want: { spec: { replicas: 3 } },
  },
  {
    name: 'inside items and additionalProperties',
    schema: {
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'object', properties: { port: { type: 'integer', default: 80 } } } },
        map: { type: 'object', additionalProperties: { type: 'object', properties: { on: { type: 'boolean', default: true } } } },
        nulls: { type: 'array', items: { type: 'string', default: 'z' } },
      },
    },
    obj: { list: [{}, { port: 1 }], map: { a: {}, b: { on: false } }, nulls: ['a', null] },
    want: { list: [{ port: 80 }, { port: 1 }], map: { a: { on: true }, b: { on: false } }, nulls: ['a', 'z'] },
  },
  {
    name: 'inside an embedded resource',
    schema: {
      type: 'object',
      properties: { tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { x: { type: 'string', default: 'y' } } } } } },
    },
    obj: { tmpl: { apiVersion: 'v1', kind: 'K', spec: {} } },
    want: { tmpl: { apiVersion: 'v1', kind: 'K', spec: { x: 'y' } } },
  },
];

describe('applyDefaults', () => {
  for (const c of cases) {
    test(c.name, () => {
      const obj = structuredClone(c.obj);
      applyDefaults(obj, buildStructural(c.schema));
      assert.deepEqual(obj, c.want);
    });
  }

  test('defaults are copies, never shared between objects', () => {
    const s = buildStructural({ type: 'object', properties: { o: { type: 'object', default: { a: [1] } } } });
    const x: Record<string, { a: number[] }> = {};
    const y: Record<string, { a: number[] }> = {};
    applyDefaults(x, s);
    applyDefaults(y, s);
    x['o']!.a.push(2);
    assert.deepEqual(y, { o: { a: [1] } });
  });
});
