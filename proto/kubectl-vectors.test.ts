/**
 * Golden vectors captured from the real kubectl 1.32 (client-go, gogo-protobuf): each `<name>.pb`
 * is the request body `kubectl create ...` sent to a local capture server, and `<name>.json` is
 * `kubectl create ... --dry-run=client -o json` for the same command (Go's encoding/json of the same
 * object). Decoding the bytes must give that JSON exactly (key order included), and encoding the
 * JSON must give the bytes exactly.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decodeObject, encodeObject, type JsonObject } from './codec.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'vectors', 'protobuf', 'kubectl-1.32');
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.pb'))
  .map((f) => f.slice(0, -3))
  .sort();

test('kubectl vectors are present', () => {
  assert.ok(names.length >= 20, `expected captured vectors in ${dir}`);
});

for (const name of names) {
  const bytes = readFileSync(join(dir, `${name}.pb`));
  const json = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as JsonObject;

  test(`kubectl ${name}: protobuf body decodes to kubectl's JSON`, () => {
    const decoded = decodeObject(bytes);
    assert.deepStrictEqual(decoded, json);
    assert.equal(JSON.stringify(decoded), JSON.stringify(json)); // same key order as Go writes
  });

  test(`kubectl ${name}: JSON encodes to kubectl's protobuf bytes`, () => {
    assert.equal(Buffer.from(encodeObject(json)).toString('hex'), bytes.toString('hex'));
  });
}
