import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { KubeObject } from '../../../api/meta/types.js';
import type { JSONSchemaProps } from '../interface.js';
import { compileVersionSchema } from './index.js';

/** A schema of 200 leaf fields (10 groups of 20: strings, integers with bounds, enums, lists). */
function wideSchema(): { schema: JSONSchemaProps; obj: KubeObject } {
  const groups: Record<string, JSONSchemaProps> = {};
  const spec: Record<string, unknown> = {};
  for (let g = 0; g < 10; g++) {
    const props: Record<string, JSONSchemaProps> = {};
    const value: Record<string, unknown> = {};
    for (let f = 0; f < 20; f++) {
      const name = `f${f}`;
      switch (f % 5) {
        case 0:
          props[name] = { type: 'string', maxLength: 63, pattern: '^[a-z0-9-]*$' };
          value[name] = `value-${f}`;
          break;
        case 1:
          props[name] = { type: 'integer', minimum: 0, maximum: 1000, default: 1 };
          value[name] = f;
          break;
        case 2:
          props[name] = { type: 'string', enum: ['Always', 'Never', 'IfNotPresent'] };
          value[name] = 'Always';
          break;
        case 3:
          props[name] = { type: 'boolean' };
          value[name] = true;
          break;
        default:
          props[name] = { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } };
          value[name] = ['a', 'b'];
      }
    }
    groups[`group${g}`] = { type: 'object', properties: props };
    spec[`group${g}`] = value;
  }
  const schema: JSONSchemaProps = { type: 'object', properties: { spec: { type: 'object', properties: groups }, status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } };
  const obj = { apiVersion: 'example.com/v1', kind: 'Wide', metadata: { name: 'w', namespace: 'default' }, spec } as unknown as KubeObject;
  return { schema, obj };
}

function perCallMs(n: number, fn: () => void): number {
  for (let i = 0; i < 200; i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - start) / 1e6 / n;
}

test('cost of a 200-field schema: compile once, validate/prune/default per request', (t) => {
  const { schema, obj } = wideSchema();
  const compileStart = process.hrtime.bigint();
  const vs = compileVersionSchema(schema, { kind: 'Wide' });
  const compileMs = Number(process.hrtime.bigint() - compileStart) / 1e6;
  assert.deepEqual(vs.validate(obj, undefined, { ratcheting: false }), []);
  const validateMs = perCallMs(5000, () => vs.validate(obj, undefined, { ratcheting: false }));
  const updateMs = perCallMs(2000, () => vs.validate(obj, obj, { ratcheting: true }));
  const copy = structuredClone(obj);
  const pruneMs = perCallMs(5000, () => vs.prune(copy));
  const defaultMs = perCallMs(5000, () => vs.applyDefaults(copy));
  // The machine's speed in the same units: serialising the object once, as every write does anyway.
  const stringifyMs = perCallMs(5000, () => JSON.stringify(obj));
  const us = (ms: number): string => `${(ms * 1000).toFixed(1)} µs`;
  t.diagnostic(
    `compile ${compileMs.toFixed(1)} ms; validate ${us(validateMs)}; update with ratcheting ${us(updateMs)}; prune ${us(pruneMs)}; defaults ${us(defaultMs)}; ` +
      `JSON.stringify of the object ${us(stringifyMs)} (validate = ${(validateMs / stringifyMs).toFixed(2)}x)`,
  );
  // Bounds loose enough for a machine shared by several test runs; the diagnostic shows the real figures.
  assert.ok(validateMs < 0.5, `validate took ${validateMs} ms`);
  assert.ok(validateMs < 6 * stringifyMs, `validate took ${validateMs} ms against ${stringifyMs} ms for JSON.stringify`);
  assert.ok(compileMs < 3000, `compile took ${compileMs} ms`);
});
