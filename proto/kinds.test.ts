/**
 * Round-trips a representative object of every top-level kind in the generated table (every
 * field filled with one non-zero value of its type, recursion cut at the first repeat of a
 * message) through encodeObject -> decodeObject, and checks the encoding is stable.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allKinds, decodeObject, encodeObject, type JsonObject, type JsonValue } from './codec.js';
import { messageSpec } from './registry.js';
import type { FieldSpec, ScalarType } from './types.js';

function sampleScalar(type: ScalarType): JsonValue {
  switch (type) {
    case 'string':
      return 'value';
    case 'bytes':
      return 'AQID';
    case 'bool':
      return true;
    case 'double':
    case 'float':
      return 1.5;
    case 'int64':
    case 'sint64':
    case 'sfixed64':
      return -1234567890123;
    default:
      return 7;
  }
}

/** A filled JSON value of a message, or undefined when the message is already being built (recursion). */
function sampleMessage(fullName: string, stack: string[]): JsonValue | undefined {
  const spec = messageSpec(fullName);
  switch (spec.special) {
    case 'time':
      return '2024-01-02T03:04:05Z';
    case 'microTime':
      return '2024-01-02T03:04:05.123456Z';
    case 'duration':
      return '1h2m3.5s';
    case 'quantity':
      return '250m';
    case 'intOrString':
      return stack.length % 2 === 0 ? 8080 : '25%';
    case 'rawJson':
      return { a: [1, 'x', null, { b: true }] };
    case 'schemaOrBool':
      return true;
    case 'schemaOrArray':
      return { type: 'string' };
    case 'schemaOrStringArray':
      return ['a', 'b'];
    case 'stringList':
      return ['x', 'y'];
    case '':
      break;
  }
  if (stack.includes(fullName) || stack.length > 12) return undefined;
  const out: JsonObject = {};
  const inner = [...stack, fullName];
  for (const field of spec.fields) {
    const value = sampleField(field, inner);
    if (value === undefined) continue;
    if (field.inline) Object.assign(out, value as JsonObject);
    else out[field.jsonName] = value;
  }
  return out;
}

function sampleField(field: FieldSpec, stack: string[]): JsonValue | undefined {
  const one = field.message ? sampleMessage(field.message, stack) : sampleScalar(field.scalar!);
  if (one === undefined) return undefined;
  if (field.map) return { 'key-b': one, 'key-a': one };
  if (field.repeated) return [one, one];
  return one;
}

const kinds = allKinds();

test('the kind table covers the built-in API', () => {
  assert.ok(kinds.length >= 300, `only ${kinds.length} kinds`);
  const names = new Set(kinds.map((k) => `${k.group}/${k.version}/${k.kind}`));
  for (const k of ['/v1/ConfigMap', '/v1/Namespace', '/v1/Pod', '/v1/Status', '/v1/WatchEvent', '/v1/DeleteOptions', 'apps/v1/Deployment', 'apiextensions.k8s.io/v1/CustomResourceDefinition', 'apiregistration.k8s.io/v1/APIService', 'meta.k8s.io/v1/WatchEvent']) {
    assert.ok(names.has(k), `missing ${k}`);
  }
});

for (const { group, version, kind, message } of kinds) {
  const apiVersion = group ? `${group}/${version}` : version;
  test(`${apiVersion} ${kind} (${message}) round-trips`, () => {
    const body = sampleMessage(message, []) as JsonObject;
    const original: JsonObject = { kind, apiVersion, ...body };
    const bytes = encodeObject(original);
    const decoded = decodeObject(bytes);
    assert.deepStrictEqual(decoded, original);
    assert.deepStrictEqual(Buffer.from(encodeObject(decoded)), Buffer.from(bytes));
  });
}
