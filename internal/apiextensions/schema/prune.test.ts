import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { JSONSchemaProps } from '../interface.js';
import { pruneObject } from './prune.js';
import { buildStructural } from './structural.js';

interface Case {
  readonly name: string;
  readonly schema: JSONSchemaProps;
  readonly obj: Record<string, unknown>;
  readonly want: Record<string, unknown>;
  readonly paths: readonly string[];
}

const spec = (properties: Record<string, JSONSchemaProps>, extra: Partial<JSONSchemaProps> = {}): JSONSchemaProps => ({
  type: 'object',
  properties: { spec: { type: 'object', properties, ...extra } },
});

const cases: Case[] = [
  {
    name: 'unknown fields at every level, root apiVersion/kind kept, metadata cut to ObjectMeta',
    schema: spec({ a: { type: 'string' }, items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } } }),
    obj: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'x', weird: 1 }, top: 1, spec: { a: 'x', foo: 1, items: [{ name: 'n', bar: 2 }, { baz: 3 }] } },
    want: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'x' }, spec: { a: 'x', items: [{ name: 'n' }, {}] } },
    paths: ['metadata.weird', 'spec.foo', 'spec.items[0].bar', 'spec.items[1].baz', 'top'],
  },
  {
    name: 'preserve-unknown-fields keeps unknowns but prunes known children',
    schema: spec({ free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'object', properties: { a: { type: 'string' } } } } } }),
    obj: { spec: { free: { anything: { deep: 1 }, known: { a: 'x', b: 'y' } } } },
    want: { spec: { free: { anything: { deep: 1 }, known: { a: 'x' } } } },
    paths: ['spec.free.known.b'],
  },
  {
    name: 'additionalProperties schema prunes inside values',
    schema: spec({ m: { type: 'object', additionalProperties: { type: 'object', properties: { a: { type: 'string' } } } } }),
    obj: { spec: { m: { k1: { a: 'x', b: 1 }, k2: {} } } },
    want: { spec: { m: { k1: { a: 'x' }, k2: {} } } },
    paths: ['spec.m.k1.b'],
  },
  {
    name: 'embedded resource keeps apiVersion/kind/metadata, metadata cut to ObjectMeta',
    schema: spec({ template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } } } }),
    obj: { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' }, bogus: 1 }, spec: { x: 'y', z: 1 }, other: 2 } } },
    want: { spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } }, spec: { x: 'y' } } } },
    paths: ['spec.template.metadata.bogus', 'spec.template.other', 'spec.template.spec.z'],
  },
  {
    name: 'non-nullable nulls without default are dropped, not reported',
    schema: spec({ a: { type: 'string' }, b: { type: 'string', nullable: true }, c: { type: 'string', default: 'x' } }),
    obj: { spec: { a: null, b: null, c: null } },
    want: { spec: { b: null, c: null } },
    paths: [],
  },
  {
    name: 'a list without an item schema prunes every object field below it',
    schema: spec({ l: { type: 'array' } }),
    obj: { spec: { l: [{ a: 1 }, 'x'] } },
    want: { spec: { l: [{}, 'x'] } },
    paths: ['spec.l[0].a'],
  },
];

describe('pruneObject', () => {
  for (const c of cases) {
    test(c.name, () => {
      const obj = structuredClone(c.obj);
      const paths = pruneObject(obj, buildStructural(c.schema));
      assert.deepEqual(obj, c.want);
      assert.deepEqual(paths, c.paths);
    });
  }

  test('a schema-less version preserves everything', () => {
    const obj = { spec: { anything: 1 } };
    assert.deepEqual(pruneObject(obj, buildStructural(undefined)), []);
    assert.deepEqual(obj, { spec: { anything: 1 } });
  });
});
