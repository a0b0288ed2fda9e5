/**
 * Every case of test/vectors/merge-patch-rfc7386.json (RFC 7386 examples and evanphx/json-patch
 * v4.12.0 merge_test.go), plus kube's answers for a merge patch.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { StatusError } from '../../apierrors/status-error.js';
import { createMergePatch, mergeMergePatches, mergePatchText, mismatchedDocuments } from './merge-patch-documents.js';
import { applyMergePatch, badJsonDocument, badJsonPatch, MergePatchError } from './merge-patch.js';

interface VectorCase {
  name: string;
  group: string;
  op: 'mergePatch' | 'createMergePatch' | 'mergeMergePatches';
  docText?: string;
  doc?: unknown;
  patchText?: string;
  patch?: unknown;
  expectedText?: string;
  expected?: unknown;
  originalText?: string;
  modifiedText?: string;
  expectedPatchText?: string;
  patch1Text?: string;
  patch2Text?: string;
  comparison?: 'compareJSON' | 'exactText';
  expectError?: string;
  evanphxDiffers?: string;
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

const vectors = JSON.parse(readFileSync(vectorPath('merge-patch-rfc7386.json'), 'utf8')) as { cases: VectorCase[] };

/** The text of each vector's input, from the exact text or, for the RFC section 3 example, the parsed value. */
function text(exact: string | undefined, parsed: unknown): string {
  return exact ?? JSON.stringify(parsed);
}

/** The library's error for the cases that expect one ("any error" in the Go test). */
const expectedErrors: Record<string, string> = {
  'RFC7386 Appendix A #11': badJsonPatch,
  'RFC7386 Appendix A #12': badJsonPatch,
  'TestCreateMergePatchMismatchedOuterArray': badJsonDocument,
  'TestCreateMergePatchMismatchedOuterTypes': mismatchedDocuments,
  'TestMergePatchReturnsErrorOnBadJSON #1': badJsonDocument,
  'TestMergePatchReturnsErrorOnBadJSON #2': badJsonPatch,
  'rfcFailTests {"a":"foo"} | null': badJsonPatch,
  'rfcFailTests {"a":"foo"} | "bar"': badJsonPatch,
};

function run(c: VectorCase): string {
  switch (c.op) {
    case 'mergePatch':
      return mergePatchText(text(c.docText, c.doc), text(c.patchText, c.patch));
    case 'createMergePatch':
      return createMergePatch(c.originalText as string, c.modifiedText as string);
    case 'mergeMergePatches':
      return mergeMergePatches(c.patch1Text as string, c.patch2Text as string);
  }
}

describe('merge-patch vectors (RFC 7386, evanphx/json-patch v4.12.0)', () => {
  assert.equal(vectors.cases.length, 74);
  for (const c of vectors.cases) {
    test(`${c.group} ${c.name}`, () => {
      const error = expectedErrors[c.name];
      if (c.expectError || c.evanphxDiffers) {
        // RFC Appendix A #11/#12 give a result for a null or string patch; kube's library refuses both.
        assert.ok(error, `no expected error for ${c.name}`);
        assert.throws(() => run(c), (err: unknown) => err instanceof MergePatchError && err.message === error);
        return;
      }
      const out = run(c);
      const expectedText = c.expectedText ?? c.expectedPatchText;
      if (c.comparison === 'exactText') assert.equal(out, expectedText);
      else assert.deepEqual(JSON.parse(out), expectedText === undefined ? c.expected : JSON.parse(expectedText));
    });
  }
});

describe('evanphx v4.12 merge behaviour beyond the vectors', () => {
  test('a patch value replacing a non-object loses its null members; one replacing an object keeps them in arrays', () => {
    assert.deepEqual(applyMergePatch({ a: 1 }, { a: { b: null, c: [{ d: null }, null] } }), { a: { c: [{}, null] } });
    assert.deepEqual(applyMergePatch({ a: { x: 1 } }, { a: [{ d: null }, null] }), { a: [{ d: null }, null] });
    assert.deepEqual(applyMergePatch({ a: [1] }, { a: [{ d: null }] }), { a: [{}] });
    assert.deepEqual(applyMergePatch({ a: null }, { a: { b: null, c: 1 } }), { a: { c: 1 } });
  });

  test('merges nested objects, never mutates its inputs, and handles a __proto__ member as data', () => {
    const target = { a: { b: 1, c: 2 }, d: [1] };
    const patch = JSON.parse('{"a":{"c":null,"e":{"f":1}},"__proto__":{"polluted":true}}') as unknown;
    const before = structuredClone({ target, patch });
    const result = applyMergePatch(target, patch) as Record<string, unknown>;
    assert.deepEqual(result, JSON.parse('{"a":{"b":1,"e":{"f":1}},"d":[1],"__proto__":{"polluted":true}}'));
    assert.deepEqual({ target, patch }, before);
    (result.d as number[]).push(2);
    assert.deepEqual(target.d, [1]);
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
  });

  test('mergeMergePatches keeps deletions; createMergePatch marks removed members null', () => {
    assert.equal(mergeMergePatches('{"a":{"b":1}}', '{"a":{"b":null,"c":null}}'), '{"a":{"b":null,"c":null}}');
    assert.equal(createMergePatch('{"a":1,"b":{"c":"<"}}', '{"b":{"c":">"}}'), '{"a":null,"b":{"c":"\\u003e"}}');
    assert.equal(createMergePatch('null', '{"a":1}'), '{"a":1}');
    assert.throws(() => createMergePatch('[1]', '[2]'), (err: unknown) => err instanceof MergePatchError && err.message === badJsonDocument);
  });
});

describe("kube's answers for a merge patch", () => {
  test('a null or scalar patch is 400 "Invalid JSON Patch"', () => {
    for (const patch of [null, 5, 'x', true]) {
      assert.throws(
        () => applyMergePatch({ a: 1 }, patch),
        (err: unknown) => err instanceof StatusError && err.status.code === 400 && err.status.reason === 'BadRequest' && err.status.message === badJsonPatch,
      );
    }
  });

  test('an array patch replaces the document (kube then fails to decode it into the object)', () => {
    assert.deepEqual(applyMergePatch({ a: 1 }, [1, null, { b: null }]), [1, null, {}]);
  });

  test('a null document is the library\'s raw error, which kube answers as a 500 of unknown reason', () => {
    assert.throws(
      () => applyMergePatch(null, { a: 1 }),
      (err: unknown) => err instanceof StatusError && err.status.code === 500 && err.status.reason === undefined && err.status.message === badJsonDocument,
    );
  });
});
