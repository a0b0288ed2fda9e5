/**
 * Every case of test/vectors/strategic-merge-patch.json (apimachinery v0.33.13
 * pkg/util/strategicpatch/patch_test.go), checked the way the file's notes describe the Go harness.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { StrategicPatchError } from './errors.js';
import {
  createThreeWayMergePatchJson,
  createTwoWayMergePatchJson,
  marshalGoJson,
  parseJsonLossless,
  strategicMergePatchJson,
} from './json-document.js';
import { patchMetaFromOpenAPI, type OpenAPISchema } from './openapi-meta.js';
import { sortMergeListsInMap } from './sort-merge-lists.js';
import { createThreeWayMergePatch, createTwoWayMergePatch, strategicMergePatch } from './strategic-merge.js';
import { structPatchSchema } from './struct-schema.js';
import type { JsonMap, PatchSchema } from './types.js';

type Doc = JsonMap | undefined;

interface VectorCase {
  name: string;
  group: string;
  schema: string;
  kind: 'smp' | 'smpText' | 'smpRawText' | 'sortMergeLists';
  checks: string[];
  compareAfterSortingMergeLists?: boolean;
  expectThreeWayConflict?: boolean;
  expectedError?: string;
  expectedTwoWayCreateError?: string;
  expectedThreeWayCreateError?: string;
  original?: JsonMap | null;
  modified?: JsonMap | null;
  current?: JsonMap | null;
  twoWay?: JsonMap | null;
  twoWayResult?: JsonMap | null;
  threeWay?: JsonMap | null;
  result?: JsonMap | null;
  sorted?: JsonMap;
  originalText?: string;
  modifiedText?: string;
  currentText?: string;
  patchText?: string;
  twoWayText?: string;
  twoWayResultText?: string;
  threeWayText?: string;
  resultText?: string;
}

/** Finds test/vectors/<name> in the nearest ancestor directory (works from src and from dist). */
function vectorPath(name: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'test', 'vectors', name);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`test/vectors/${name} not found`);
    dir = parent;
  }
}

/** The Go test types as patch schemas, from the swagger documents kube's tests load. */
function testSchema(file: string, root: string): PatchSchema {
  const doc = JSON.parse(readFileSync(vectorPath(`strategic-merge-patch.schemas/${file}`), 'utf8')) as { definitions: Record<string, OpenAPISchema> };
  // MergeItem.MergeItemPtr is a *MergeItem in Go, which is what lets the tests put a list there.
  const meta = patchMetaFromOpenAPI(doc.definitions, { pointerFields: ['mergeItem.mergeItemPtr'] });
  return structPatchSchema(meta.definitions, root);
}

const schemas: Record<string, PatchSchema> = {
  mergeItem: testSchema('swagger-merge-item.json', 'mergeItem'),
  precisionItem: testSchema('swagger-precision-item.json', 'precisionItem'),
};

/** Cases that do not pass, each with the reason. */
const skipped: Readonly<Record<string, string>> = {};

const vectors = JSON.parse(readFileSync(vectorPath('strategic-merge-patch.json'), 'utf8')) as { cases: VectorCase[] };

/** The harness's document preparation: a nil map stays nil; YAML-table groups sort merge lists first. */
function prepare(c: VectorCase, doc: JsonMap | null | undefined, schema: PatchSchema): Doc {
  if (doc === null || doc === undefined) return undefined;
  return c.compareAfterSortingMergeLists ? sortMergeListsInMap(doc, schema) : doc;
}

function text(doc: unknown): string {
  return marshalGoJson(doc ?? null);
}

function assertThrowsContaining(fn: () => unknown, expected: string, what: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof StrategicPatchError, `${what}: expected a StrategicPatchError, got ${String(err)}`);
    assert.ok(err.message.includes(expected), `${what}: error ${JSON.stringify(err.message)} does not contain ${JSON.stringify(expected)}`);
    return true;
  });
}

function runSmp(c: VectorCase, schema: PatchSchema): void {
  const original = prepare(c, c.original, schema);
  const modified = prepare(c, c.modified, schema);
  const twoWay = prepare(c, c.twoWay, schema);
  if (c.checks.includes('createTwoWay')) {
    assert.equal(text(createTwoWayMergePatch(original, modified, schema)), text(twoWay), 'CreateTwoWayMergePatch');
  }
  if (c.checks.includes('applyTwoWay')) {
    if (c.expectedError !== undefined) {
      assertThrowsContaining(() => strategicMergePatch(original, twoWay, schema), c.expectedError, 'StrategicMergePatch');
    } else {
      const expected = prepare(c, c.twoWayResult ?? c.modified, schema);
      assert.equal(text(strategicMergePatch(original, twoWay, schema)), text(expected), 'StrategicMergePatch(original, twoWay)');
    }
  }
  if (!c.checks.includes('createThreeWay')) return;
  const current = prepare(c, c.current, schema);
  const threeWay = prepare(c, c.threeWay, schema);
  const result = prepare(c, c.result, schema);
  if (c.expectThreeWayConflict) {
    assert.throws(
      () => createThreeWayMergePatch(original, modified, current, schema, false),
      (err: unknown) => err instanceof StrategicPatchError && err.kind === 'Conflict',
      'CreateThreeWayMergePatch(overwrite=false) must report a conflict',
    );
    if (c.result === undefined) return;
    const patch = createThreeWayMergePatch(original, modified, current, schema, true);
    assert.equal(text(patch), text(threeWay), 'CreateThreeWayMergePatch(overwrite=true)');
    assert.equal(text(strategicMergePatch(current, patch, schema)), text(result), 'StrategicMergePatch(current, threeWay)');
    return;
  }
  assert.ok(c.result !== undefined, 'a three-way case without result or conflict cannot pass in the Go harness');
  const patch = createThreeWayMergePatch(original, modified, current, schema, false);
  assert.equal(text(patch), text(threeWay), 'CreateThreeWayMergePatch');
  assert.equal(text(strategicMergePatch(current, patch, schema)), text(result), 'StrategicMergePatch(current, threeWay)');
}

function runSmpText(c: VectorCase, schema: PatchSchema): void {
  if (c.checks.includes('createTwoWay')) {
    if (c.expectedTwoWayCreateError !== undefined) {
      assertThrowsContaining(() => createTwoWayMergePatchJson(c.originalText, c.modifiedText, schema), c.expectedTwoWayCreateError, 'CreateTwoWayMergePatch');
    } else {
      const patch = createTwoWayMergePatchJson(c.originalText, c.modifiedText, schema);
      assert.equal(patch, c.twoWayText, 'CreateTwoWayMergePatch');
      assert.equal(strategicMergePatchJson(c.originalText, patch, schema), c.twoWayResultText, 'StrategicMergePatch(original, twoWay)');
    }
  }
  if (c.checks.includes('createThreeWay')) {
    if (c.expectedThreeWayCreateError !== undefined) {
      assertThrowsContaining(
        () => createThreeWayMergePatchJson(c.originalText, c.modifiedText, c.currentText, schema, false),
        c.expectedThreeWayCreateError,
        'CreateThreeWayMergePatch',
      );
    } else {
      const patch = createThreeWayMergePatchJson(c.originalText, c.modifiedText, c.currentText, schema, false);
      assert.equal(patch, c.threeWayText, 'CreateThreeWayMergePatch');
      assert.equal(strategicMergePatchJson(c.currentText, patch, schema), c.resultText, 'StrategicMergePatch(current, threeWay)');
    }
  }
}

function runCase(c: VectorCase): void {
  const schema = schemas[c.schema];
  assert.ok(schema, `no schema ${c.schema}`);
  switch (c.kind) {
    case 'sortMergeLists':
      assert.equal(text(sortMergeListsInMap(c.original ?? {}, schema)), text(c.sorted), 'sortMergeListsByName');
      return;
    case 'smp':
      runSmp(c, schema);
      return;
    case 'smpText':
      runSmpText(c, schema);
      return;
    case 'smpRawText':
      assert.throws(
        () => strategicMergePatchJson(c.originalText, c.patchText, schema),
        (err: unknown) => err instanceof StrategicPatchError && err.message === c.expectedError && err.kind === 'BadRequest',
      );
      return;
  }
}

describe('strategic merge patch vectors (apimachinery v0.33.13 strategicpatch/patch_test.go)', () => {
  test('the vector file is the one described and every case is run', () => {
    assert.equal(vectors.cases.length, 177);
  });
  vectors.cases.forEach((c, i) => {
    const id = `${c.group}/${c.name}`;
    const reason = skipped[id];
    test(`#${i} ${id}`, reason !== undefined ? { skip: reason } : {}, () => runCase(c));
  });
});

describe('JSON text handling', () => {
  test('keeps int64 precision through a round trip', () => {
    const doc = parseJsonLossless('{"b":9223372036854775807,"a":[1.5,-9223372036854775808,3]}');
    assert.equal(marshalGoJson(doc), '{"a":[1.5,-9223372036854775808,3],"b":9223372036854775807}');
  });
  test('escapes as encoding/json does', () => {
    assert.equal(marshalGoJson({ s: '<a&b>\u2028' }), '{"s":"\\u003ca\\u0026b\\u003e\\u2028"}');
  });
  test('rejects trailing garbage and non-objects as invalid JSON documents', () => {
    for (const bad of ['{} x', '[]', '"s"', '{"a":}', '{"a":1,}']) {
      assert.throws(() => strategicMergePatchJson('{}', bad, schemas.mergeItem as PatchSchema), /invalid JSON document/);
    }
  });
  test('a null document is an empty object', () => {
    assert.equal(strategicMergePatchJson('null', '{"name":"a"}', schemas.mergeItem as PatchSchema), '{"name":"a"}');
  });
});
