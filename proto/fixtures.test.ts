/**
 * Round-trips the upstream k8s.io/api fixtures (test/vectors/protobuf, every field filled, written
 * by Go's encoding/json) through JSON -> Protobuf -> JSON; they must come back identical, int64
 * beyond 2^53 included. When a fixture's upstream `.pb` sits beside it, the encoding must equal it
 * byte for byte.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decodeObject, encodeObject, type JsonObject } from './codec.js';

const vectors = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'vectors', 'protobuf');
const BIG = '__capstan_bigint__:';

/** JSON.parse that keeps integers beyond 2^53 exact, as bigint (Go's int64). */
function parseWithBigInts(text: string): JsonObject {
  // Only bare numbers after ':' '[' or ',' are touched; the fixtures' quoted strings never hold such runs.
  const marked = text.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,}\]])/g, (m, pre: string, digits: string) => {
    const n = Number(digits);
    return Number.isSafeInteger(n) ? m : `${pre}"${BIG}${digits}"`;
  });
  return JSON.parse(marked, (_k, v: unknown) => (typeof v === 'string' && v.startsWith(BIG) ? BigInt(v.slice(BIG.length)) : v)) as JsonObject;
}

const fixtures = readdirSync(vectors).filter((f) => f.endsWith('.json')).sort();

test('fixtures are present', () => {
  assert.ok(fixtures.length >= 7, `expected the upstream fixtures in ${vectors}`);
});

for (const file of fixtures) {
  test(`upstream fixture ${file} round-trips JSON -> protobuf -> JSON unchanged`, () => {
    const original = parseWithBigInts(readFileSync(join(vectors, file), 'utf8'));
    const bytes = encodeObject(original);
    const decoded = decodeObject(bytes, { bigints: true });
    assert.deepStrictEqual(decoded, original);
    // Key order too: kind, apiVersion, then Go declaration order, as kube writes JSON.
    assert.deepStrictEqual(Object.keys(decoded), Object.keys(original));
    // Re-encoding the decoded object is stable.
    assert.deepStrictEqual(Buffer.from(encodeObject(decoded)), Buffer.from(bytes));
    const pb = join(vectors, file.replace(/\.json$/, '.pb'));
    if (existsSync(pb)) assert.deepStrictEqual(Buffer.from(bytes), readFileSync(pb));
  });
}
