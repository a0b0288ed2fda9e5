import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decodeObject, encodeObject } from '../../proto/codec.js';
import type { JsonObject } from '../../proto/types.js';
import { sortKeysDeep } from '../endpoints/negotiation/body.js';
import { parseStrictJson } from '../endpoints/negotiation/strict-json.js';
import { applyMergePatch } from '../endpoints/patch/merge-patch.js';
import { patchSchemaFor } from '../endpoints/patch/strategic/schema.js';
import { createTwoWayMergePatch, strategicMergePatch } from '../endpoints/patch/strategic/strategic-merge.js';
import { cloneValue, type Value } from '../fieldmanager/value.js';
import { copyJson } from '../validation/schema/json-copy.js';
import { setOwnKey } from './own-key.js';

/** Asserts o holds key as an own enumerable property with value, and kept Object.prototype. */
function assertOwn(o: unknown, key: string, value: unknown): void {
  assert.ok(typeof o === 'object' && o !== null);
  assert.equal(Object.getPrototypeOf(o), Object.prototype, 'prototype unchanged');
  assert.ok(Object.keys(o).includes(key), `own key ${key} in ${JSON.stringify(o)}`);
  assert.deepEqual(Object.getOwnPropertyDescriptor(o, key)?.value, value);
}

describe('setOwnKey', () => {
  test('"__proto__" becomes an own key, as JSON.parse makes it; the prototype stays', () => {
    const o: Record<string, unknown> = { a: 1 };
    setOwnKey(o, '__proto__', { polluted: true });
    assert.deepEqual(Object.keys(o), ['a', '__proto__']);
    assert.equal(Object.getPrototypeOf(o), Object.prototype);
    assert.equal((o as { polluted?: boolean }).polluted, undefined);
    assert.equal(JSON.stringify(o), '{"a":1,"__proto__":{"polluted":true}}');
    setOwnKey(o, '__proto__', 'again');
    assert.deepEqual(Object.keys(o), ['a', '__proto__'], 'an existing own key keeps its place');
    assertOwn(o, '__proto__', 'again');
  });

  test('other keys, "constructor" and "prototype" included, are plain own keys', () => {
    const o: Record<string, unknown> = {};
    setOwnKey(o, 'constructor', 'c');
    setOwnKey(o, 'prototype', { x: 1 });
    assert.deepEqual(o, JSON.parse('{"constructor":"c","prototype":{"x":1}}'));
  });
});

describe('every copy and walk on the write path keeps a "__proto__" key', () => {
  const doc = (): Record<string, unknown> => JSON.parse('{"data":{"__proto__":{"x":"y"},"a":"b"}}');

  test('parseStrictJson (fast path and the walk that reports duplicates)', () => {
    assertOwn((parseStrictJson('{"data":{"__proto__":"x"}}').value as any).data, '__proto__', 'x');
    const dup = parseStrictJson('{"data":{"__proto__":{"x":1},"a":1,"a":2}}');
    assert.deepEqual(dup.duplicates, ['data.a']);
    assertOwn((dup.value as any).data, '__proto__', { x: 1 });
  });

  test('copyJson, sortKeysDeep, cloneValue', () => {
    assertOwn((copyJson(doc()) as any).data, '__proto__', { x: 'y' });
    assertOwn((sortKeysDeep(doc()) as any).data, '__proto__', { x: 'y' });
    assertOwn((cloneValue(doc() as Value) as any).data, '__proto__', { x: 'y' });
  });

  test('merge patch and strategic merge patch, and the two-way diff', () => {
    assertOwn((applyMergePatch(doc(), JSON.parse('{"data":{"__proto__":{"z":1}}}')) as any).data, '__proto__', { x: 'y', z: 1 });
    const schema = patchSchemaFor({ group: '', version: 'v1', kind: 'ConfigMap' });
    assert.ok(schema);
    assertOwn((strategicMergePatch(doc(), JSON.parse('{"data":{"__proto__":"s"}}'), schema) as any).data, '__proto__', 's');
    const diff = createTwoWayMergePatch(JSON.parse('{"data":{"a":"b"}}'), doc(), schema);
    assertOwn((diff as any).data, '__proto__', { x: 'y' });
  });

  test('the Protobuf decoder maps', () => {
    const cm = JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"__proto__":"p","a":"b"}}') as JsonObject;
    assertOwn(decodeObject(encodeObject(cm)).data, '__proto__', 'p');
  });
});
