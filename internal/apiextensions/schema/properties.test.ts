import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';

import type { KubeObject } from '../../../api/meta/types.js';
import { fieldErrorMessage } from '../../validation/field-error.js';
import type { JSONSchemaProps } from '../interface.js';
import { compileVersionSchema } from './index.js';

const schema: JSONSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['mode'],
      properties: {
        mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
        replicas: { type: 'integer', minimum: 0, maximum: 10, default: 1 },
        name: { type: 'string', maxLength: 8, default: 'x' },
        paused: { type: 'boolean', default: false },
        ports: {
          type: 'array',
          maxItems: 4,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 4 }, port: { type: 'integer', minimum: 1, default: 80 } } },
        },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', maxLength: 3 } },
        labels: { type: 'object', additionalProperties: { type: 'string', default: 'v' } },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

/** Objects valid for s, with optional (and some defaulted) fields left out at random. */
function arbitraryFor(s: JSONSchemaProps): fc.Arbitrary<unknown> {
  if (s['x-kubernetes-preserve-unknown-fields']) return fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case 'string':
      return fc.string({ maxLength: s.maxLength ?? 10 });
    case 'integer':
      return fc.integer({ min: s.minimum ?? -100, max: s.maximum ?? 100 });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const item = arbitraryFor(s.items as JSONSchemaProps);
      const maxLength = s.maxItems ?? 5;
      if (s['x-kubernetes-list-type'] === 'set') return fc.uniqueArray(item, { maxLength, selector: (v) => JSON.stringify(v) });
      if (s['x-kubernetes-list-type'] === 'map') {
        const key = (s['x-kubernetes-list-map-keys'] ?? [])[0] as string;
        return fc.uniqueArray(item, { maxLength, selector: (v) => (v as Record<string, unknown>)[key] });
      }
      return fc.array(item, { maxLength });
    }
    default: {
      if (s.additionalProperties && typeof s.additionalProperties === 'object') {
        return fc.dictionary(fc.string({ minLength: 1, maxLength: 3 }), arbitraryFor(s.additionalProperties), { maxKeys: 3 });
      }
      const required = new Set(s.required ?? []);
      const entries = Object.entries(s.properties ?? {});
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of entries) record[k] = arbitraryFor(v);
      const requiredKeys = entries.map(([k]) => k).filter((k) => required.has(k) && s.properties?.[k]?.default === undefined);
      return fc.record(record, { requiredKeys });
    }
  }
}

const vs = compileVersionSchema(schema, { kind: 'Widget' });
const root = (spec: unknown): KubeObject => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec }) as unknown as KubeObject;

describe('properties', () => {
  test('pruning is idempotent', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 3 }), (spec, junk) => {
        const obj = { ...root(spec), junk } as KubeObject;
        vs.prune(obj);
        const once = structuredClone(obj);
        assert.deepEqual(vs.prune(obj), []);
        assert.deepEqual(obj, once);
      }),
      { numRuns: 300 },
    );
  });

  test('defaulting then validating a valid object stays valid', () => {
    fc.assert(
      fc.property(arbitraryFor(schema.properties!['spec']!), (spec) => {
        const obj = root(structuredClone(spec));
        vs.prune(obj);
        vs.applyDefaults(obj);
        assert.deepEqual(vs.validate(obj, undefined, { ratcheting: false }).map(fieldErrorMessage), []);
        // Defaulting twice changes nothing.
        const again = structuredClone(obj);
        vs.applyDefaults(again);
        assert.deepEqual(again, obj);
      }),
      { numRuns: 300 },
    );
  });
});
