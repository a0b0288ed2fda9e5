/**
 * The compiled codec against the reference walk: for random objects of every built-in kind (every
 * field optional, values of every scalar type including int64 beyond 2^53 and strings with lone
 * surrogates, nulls, maps, lists, the special types), the compiled encoder must not decline and
 * must write the reference's bytes, and the compiled decoder must give the reference's object in
 * the same key order. Corrupted bodies must give codec.ts the reference's result or error.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decodeObject } from './codec.js';
import { fastDecodeObject, fastEncodeObject } from './fast-codec.js';
import { messageForTypeMeta, referenceDecodeObject, referenceEncodeObject } from './reference.js';
import { allKinds, messageSpec } from './registry.js';
import { sampleObjects } from './sample-objects.js';
import type { FieldSpec, JsonObject, JsonValue, ScalarType } from './types.js';

const char = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'Z', '0', '-', '.', '/', ' ') },
  { weight: 1, arbitrary: fc.constantFrom('é', 'ü', '€', '𝄞', '\ud800', '\udc00', '\u0000', '\uffff') },
);
const text = fc.oneof(fc.string({ unit: char, maxLength: 8 }), fc.string({ unit: char, minLength: 38, maxLength: 70 }));

function scalar(type: ScalarType): fc.Arbitrary<JsonValue> {
  switch (type) {
    case 'string':
      return text;
    case 'bytes':
      return fc.uint8Array({ maxLength: 20 }).map((b) => Buffer.from(b).toString('base64'));
    case 'bool':
      return fc.boolean();
    case 'int32':
      return fc.integer();
    case 'int64':
      return fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }));
    case 'double':
      return fc.double({ noNaN: true });
    default:
      return fc.constant(0);
  }
}

const TIME = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true });

function special(kind: string, fullName: string, depth: number): fc.Arbitrary<JsonValue> | undefined {
  switch (kind) {
    case 'time':
      return fc.oneof(fc.constant(null), TIME.map((d) => d.toISOString().replace(/\.\d+Z$/, 'Z')));
    case 'microTime':
      return fc.oneof(fc.constant(null), TIME.map((d) => d.toISOString().replace(/\.(\d+)Z$/, '.$1123Z')));
    case 'duration':
      return fc.constantFrom('1h2m3.5s', '0s', '-300ms', '1m0s', '2562047h47m16.854775807s');
    case 'quantity':
      return fc.constantFrom('250m', '1Gi', '0', '1.5', '100');
    case 'intOrString':
      return fc.oneof(fc.integer(), text);
    case 'rawJson':
      return fc.oneof(fc.constant(null), fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>);
    case 'schemaOrBool':
      return fc.oneof(fc.boolean(), message(messageSpec(fullName).byNumber.get(2)!.message!, depth + 1));
    case 'schemaOrArray': {
      const schema = message(messageSpec(fullName).byNumber.get(1)!.message!, depth + 1);
      return fc.oneof(schema, fc.array(schema, { maxLength: 2 }));
    }
    case 'schemaOrStringArray':
      return fc.oneof(message(messageSpec(fullName).byNumber.get(1)!.message!, depth + 1), fc.array(text, { maxLength: 2 }));
    case 'stringList':
      return fc.oneof(fc.constant(null), fc.array(text, { maxLength: 3 }));
    default:
      return undefined;
  }
}

function fieldValue(f: FieldSpec, depth: number): fc.Arbitrary<JsonValue> {
  const one = f.message ? message(f.message, depth + 1) : scalar(f.scalar!);
  const item = fc.oneof({ weight: 8, arbitrary: one }, { weight: 1, arbitrary: fc.constant(null) });
  if (f.map) return fc.dictionary(text, item, { maxKeys: 3 });
  if (f.repeated) return fc.oneof({ weight: 8, arbitrary: fc.array(item, { maxLength: 3 }) }, { weight: 1, arbitrary: fc.constant(null) });
  return item;
}

const cache = new Map<string, fc.Arbitrary<JsonValue>>();

function message(fullName: string, depth: number): fc.Arbitrary<JsonValue> {
  const spec = messageSpec(fullName);
  const s = special(spec.special, fullName, depth);
  if (s) return s;
  if (depth > 4) return fc.constant({});
  const cacheKey = `${fullName}@${depth}`;
  let arb = cache.get(cacheKey);
  if (!arb) {
    const model: Record<string, fc.Arbitrary<JsonValue>> = {};
    for (const f of spec.fields) {
      if (f.inline) Object.assign(model, {}); // embedded fields are the embedded message's own, below
      else model[f.jsonName] = fc.constant(null).chain(() => fieldValue(f, depth));
    }
    const embedded = spec.fields.filter((f) => f.inline).map((f) => message(f.message!, depth));
    arb = fc.tuple(fc.record(model, { requiredKeys: [] }), ...embedded).map(([own, ...inner]) => Object.assign({}, ...inner, own) as JsonValue);
    cache.set(cacheKey, arb);
  }
  return arb;
}

function compare(obj: JsonObject): void {
  const apiVersion = obj['apiVersion'] as string;
  const kind = obj['kind'] as string;
  const expected = Buffer.from(referenceEncodeObject(obj));
  const bytes = fastEncodeObject(messageForTypeMeta(apiVersion, kind), apiVersion, kind, obj);
  assert.ok(bytes.equals(expected), `${kind}: compiled encoding differs from the reference`);
  for (const bigints of [false, true]) {
    const want = referenceDecodeObject(expected, { bigints });
    const got = fastDecodeObject(expected, bigints, messageForTypeMeta, (b) => decodeObject(b, { bigints }));
    assert.deepStrictEqual(got, want);
    assert.deepStrictEqual(JSON.stringify(got, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)), JSON.stringify(want, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
  }
}

const kinds = allKinds().filter((k) => !k.kind.endsWith('Options') && k.kind !== 'WatchEvent');
const apiVersionOf = (k: { group: string; version: string }) => (k.group ? `${k.group}/${k.version}` : k.version);

test('the sample objects encode and decode the same with the compiled codec and the reference', () => {
  for (const make of Object.values(sampleObjects)) compare(make());
});

test('random objects of every built-in kind encode and decode the same with the compiled codec and the reference', () => {
  const arb = fc.constantFrom(...kinds).chain((k) => message(k.message, 0).map((body) => ({ ...(body as JsonObject), apiVersion: apiVersionOf(k), kind: k.kind })));
  fc.assert(fc.property(arb, compare), { numRuns: 1500 });
});

test('random Pods, Nodes, Deployments and CustomResourceDefinitions encode and decode the same with the compiled codec and the reference', () => {
  const chosen = kinds.filter((k) => ['Pod', 'Node', 'Deployment', 'CustomResourceDefinition'].includes(k.kind) && k.version === 'v1');
  assert.equal(chosen.length, 4);
  const arb = fc.constantFrom(...chosen).chain((k) => message(k.message, 0).map((body) => ({ ...(body as JsonObject), apiVersion: apiVersionOf(k), kind: k.kind })));
  fc.assert(fc.property(arb, compare), { numRuns: 400 });
});

function outcome(fn: () => JsonValue): string {
  try {
    return `ok ${JSON.stringify(fn(), (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`;
  } catch (err) {
    return `error ${(err as { code?: string }).code} ${(err as Error).message}`;
  }
}

test('corrupted bodies decode to the reference result or error', () => {
  const bodies = Object.values(sampleObjects).map((make) => Buffer.from(referenceEncodeObject(make())));
  const arb = fc.record({
    body: fc.constantFrom(...bodies),
    edits: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 3 }),
    cut: fc.option(fc.nat()),
  });
  fc.assert(
    fc.property(arb, ({ body, edits, cut }) => {
      const b = Buffer.from(body);
      for (const [at, value] of edits) b[at % b.length] = value;
      const input = cut === null ? b : b.subarray(0, cut % b.length);
      assert.equal(outcome(() => decodeObject(input)), outcome(() => referenceDecodeObject(input)));
      assert.equal(outcome(() => decodeObject(new Uint8Array(input))), outcome(() => referenceDecodeObject(new Uint8Array(input))));
    }),
    { numRuns: 3000 },
  );
});
