/**
 * Every case of test/vectors/json-patch.json (evanphx/json-patch v4.12.0 patch_test.go), run the
 * way the Go harness runs it (DecodePatch then Apply, AccumulatedCopySizeLimit 100 as TestAllCases
 * sets), plus the library's exact error texts and kube's HTTP answers around it.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Operation } from 'fast-json-patch';
import { StatusError } from '../../apierrors/status-error.js';
import {
  applyJsonPatch,
  checkJsonPatchStrict,
  decodeJsonPatch,
  jsonPatchFieldMessages,
  jsonPatchMaxCopyBytes,
  maxJsonPatchOperations,
} from './json-patch.js';
import { applyPatchOperations, type RawOperation } from './json-patch-apply.js';
import { PatchApplyError, PatchPanic } from './json-patch-error.js';
import { jsonDocumentsEqual } from './json-patch-node.js';

interface VectorCase {
  name: string;
  group: string;
  op: 'applyPatch' | 'equal';
  expect?: string;
  docText?: string;
  doc?: unknown;
  patchText?: string;
  patch?: unknown;
  resultText?: string;
  result?: unknown;
  expectedErrorMessage?: string;
  aText?: string;
  bText?: string;
  expectEqual?: boolean;
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

const vectors = JSON.parse(readFileSync(vectorPath('json-patch.json'), 'utf8')) as { cases: VectorCase[] };

/**
 * The library's text for every failing vector (the Go test checks only err != nil for BadCases);
 * worked out from v4.12.0 patch.go. TestCases carry theirs in the vector.
 */
const badCaseMessages: Record<string, string> = {
  'BadCases #1': 'add operation does not apply: doc is missing path: "/baz/bat": missing value',
  'BadCases #2': "error in remove for path: '/a/b/c': Unable to remove nonexistent key: c: missing value",
  'BadCases #3': "error in move for path: 'c': Unable to remove nonexistent key: c: missing value",
  'BadCases #4': "error in remove for path: '/a/b/1': Unable to access invalid index: 1: invalid index referenced",
  'BadCases #5': "error in move for path: '1': Unable to access invalid index: 1: invalid index referenced",
  'BadCases #6': 'add operation failed to decode path: missing value',
  'BadCases #7': 'add operation does not apply: doc is missing path: "": missing value',
  'BadCases #8': 'replace operation does not apply: doc is missing key: /foo/2: missing value',
  'BadCases #9': "error in add for path: '/foo/-4': Unable to access invalid index: -4: invalid index referenced",
  'BadCases #10': 'replace operation does not apply: doc is missing path: /foo/bar: missing value',
  'BadCases #11': "error in add for path: '/foo/2': Unable to access invalid index: 2: invalid index referenced",
  'BadCases #12': `error in remove for path: '/foo/-': strconv.Atoi: parsing "-": invalid syntax`,
  'BadCases #13': "error in remove for path: '/foo/-1': Unable to access invalid index: -1: invalid index referenced",
  'BadCases #14': "error in remove for path: '/foo/-2': Unable to access invalid index: -2: invalid index referenced",
  'BadCases #15': 'Unexpected kind: unknown',
  'BadCases #16': 'add operation failed to decode path: missing value',
  'BadCases #17': 'copy operation failed to decode from: operation, missing from field: missing value',
  'BadCases #18': 'error while adding value during copy: Unable to access invalid index: 6666666666: invalid index referenced',
  'BadCases #19': 'error while adding value during copy: Unable to access invalid index: 2: invalid index referenced',
  'BadCases #20': 'Unable to complete the copy, the accumulated size increase of copy is 102, exceeding the limit 100',
  'BadCases #21': "error in move for path: '/foo/4': Unable to access invalid index: 4: invalid index referenced",
};

/**
 * Vectors on array documents whose written result the Go harness never checks (compareJSON
 * unmarshals into a map, which fails for arrays on both sides, so any result passes). The library's
 * real result is asserted instead.
 */
const uncheckedArrayResults: Record<string, { reason: string; result: unknown }> = {
  'Cases #19': {
    reason: 'copy to /0/bar/0 inserts (add semantics), it does not overwrite bar[0] as the vector text shows',
    result: [{ foo: ['bar', 'qux', 'baz'], bar: ['bar', 'qux', 'baz'] }],
  },
  'Cases #20': {
    reason: 'copy to /0/bar sets bar to the copied string "bar", not to the whole foo array as the vector text shows',
    result: [{ foo: ['bar', 'qux', 'baz'], bar: 'bar' }],
  },
};

function parsedOrText(value: unknown, text: string | undefined): unknown {
  if (value !== undefined) return value;
  return text === undefined || text === '' ? undefined : JSON.parse(text);
}

/** DecodePatch then Apply with the limit TestAllCases sets. */
function runVector(c: VectorCase): unknown {
  const ops = decodeJsonPatch(parsedOrText(c.patch, c.patchText));
  return applyPatchOperations(parsedOrText(c.doc, c.docText), ops as unknown as RawOperation[], { accumulatedCopySizeLimit: 100 });
}

/** Applies a patch with the server's settings, returning the library's error text on failure. */
function apply(doc: unknown, patch: unknown[]): unknown {
  return applyPatchOperations(doc, patch as RawOperation[], { accumulatedCopySizeLimit: jsonPatchMaxCopyBytes });
}

function applyError(doc: unknown, patch: unknown[]): string {
  try {
    apply(doc, patch);
  } catch (err) {
    if (err instanceof PatchApplyError || err instanceof PatchPanic) return `${err.name}: ${err.message}`;
    throw err;
  }
  assert.fail('the patch applied');
}

describe('json-patch vectors (evanphx/json-patch v4.12.0)', () => {
  assert.equal(vectors.cases.length, 76);
  for (const c of vectors.cases) {
    if (c.op === 'equal') {
      test(`${c.group} ${c.name}`, () => {
        const a = JSON.parse(c.aText as string) as unknown;
        const b = JSON.parse(c.bText as string) as unknown;
        assert.equal(jsonDocumentsEqual(a, b), c.expectEqual);
        assert.equal(jsonDocumentsEqual(b, a), c.expectEqual);
      });
      continue;
    }
    test(`${c.group} ${c.name}`, () => {
      const docBefore = structuredClone(parsedOrText(c.doc, c.docText));
      if (c.expect === 'error') {
        const message = c.expectedErrorMessage ?? badCaseMessages[c.name];
        assert.ok(message, `no expected text for ${c.name}`);
        assert.throws(() => runVector(c), (err: unknown) => err instanceof PatchApplyError && err.message === message);
        return;
      }
      const result = runVector(c);
      assert.deepEqual(parsedOrText(c.doc, c.docText), docBefore, 'the input document is not mutated');
      if (c.group === 'TestAllCases/MutationTestCases') assert.notDeepEqual(result, docBefore);
      else if (c.group === 'TestAllCases/Cases') {
        const unchecked = uncheckedArrayResults[c.name];
        if (unchecked) assert.notDeepEqual(unchecked.result, parsedOrText(c.result, c.resultText), unchecked.reason);
        assert.deepEqual(result, unchecked ? unchecked.result : parsedOrText(c.result, c.resultText), unchecked?.reason);
      }
    });
  }
});

describe('evanphx v4.12 behaviour beyond the vectors', () => {
  test('replace of a missing object member adds it; replace of the root with a scalar or null is a no-op', () => {
    assert.deepEqual(apply({ a: 1 }, [{ op: 'replace', path: '/b', value: 2 }]), { a: 1, b: 2 });
    assert.deepEqual(apply({ a: 1 }, [{ op: 'replace', path: '', value: 5 }]), { a: 1 });
    assert.deepEqual(apply({ a: 1 }, [{ op: 'replace', path: '', value: null }]), { a: 1 });
    assert.deepEqual(apply({ a: 1 }, [{ op: 'replace', path: '', value: [1] }]), [1]);
    // An operation without a value adds or replaces with null.
    assert.deepEqual(apply({ a: 1 }, [{ op: 'add', path: '/b' }, { op: 'replace', path: '/a' }]), { a: null, b: null });
  });

  test('negative indices: -1 replaces and removes the last element, add at -1 appends', () => {
    assert.deepEqual(apply({ a: [1, 2, 3] }, [{ op: 'replace', path: '/a/-1', value: 9 }]), { a: [1, 2, 9] });
    assert.deepEqual(apply({ a: [1, 2, 3] }, [{ op: 'remove', path: '/a/-1' }]), { a: [1, 2] });
    assert.deepEqual(apply({ a: [1, 2, 3] }, [{ op: 'add', path: '/a/-2', value: 9 }]), { a: [1, 2, 9, 3] });
    assert.deepEqual(apply({ a: [1, 2] }, [{ op: 'test', path: '/a/-1', value: 2 }]), { a: [1, 2] });
    assert.equal(applyError({ a: [1] }, [{ op: 'add', path: '/a/x', value: 0 }]), `PatchApplyError: error in add for path: '/a/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`);
    assert.equal(
      applyError({ a: [1] }, [{ op: 'remove', path: '/a/99999999999999999999' }]),
      `PatchApplyError: error in remove for path: '/a/99999999999999999999': strconv.Atoi: parsing "99999999999999999999": value out of range`,
    );
  });

  test('paths: a missing leading slash reads from the first slash, no slash names nothing, ~1 and ~0 unescape', () => {
    assert.deepEqual(apply({ a: 1 }, [{ op: 'add', path: 'x/b', value: 2 }]), { a: 1, b: 2 });
    assert.equal(applyError({ a: 1 }, [{ op: 'remove', path: 'a' }]), 'PatchApplyError: remove operation does not apply: doc is missing path: "a": missing value');
    assert.deepEqual(apply({ 'a/b': { '~': 1 } }, [{ op: 'remove', path: '/a~1b/~0' }]), { 'a/b': {} });
  });

  test('test: a missing member equals null, scalars compare by text with the server side Go-encoded', () => {
    assert.deepEqual(apply({}, [{ op: 'test', path: '/missing', value: null }]), {});
    assert.equal(applyError({ a: 'x<y' }, [{ op: 'test', path: '/a', value: 'x<y' }]), 'PatchApplyError: testing value /a failed: test failed');
    // A value added by the patch is the client's text, so it compares equal to the same text.
    assert.deepEqual(apply({}, [{ op: 'add', path: '/a', value: 'x<y' }, { op: 'test', path: '/a', value: 'x<y' }]), { a: 'x<y' });
    assert.deepEqual(apply({ a: { b: [1, 'two'] } }, [{ op: 'test', path: '/a', value: { b: [1, 'two'] } }]), { a: { b: [1, 'two'] } });
    assert.equal(applyError({ a: { b: 1 } }, [{ op: 'test', path: '/a', value: { b: 1, c: 2 } }]), 'PatchApplyError: testing value /a failed: test failed');
    assert.equal(applyError({ a: 1 }, [{ op: 'test', path: '', value: { a: 2 } }]), 'PatchApplyError: testing value  failed: test failed');
    assert.equal(applyError({ a: 1 }, [{ op: 'test', path: '/b/c', value: 1 }]), 'PatchApplyError: test operation does not apply: is missing path: /b/c: missing value');
  });

  test('where v4.12 panics: nulls inside compared arrays, a test without value on a null, traversing a patch-made null', () => {
    const panic = `PatchPanic: runtime error: invalid memory address or nil pointer dereference`;
    assert.equal(applyError({ a: [null] }, [{ op: 'test', path: '/a', value: [null] }]), panic);
    assert.equal(applyError({ a: null }, [{ op: 'test', path: '/a' }]), panic);
    assert.equal(applyError({}, [{ op: 'add', path: '/a', value: null }, { op: 'add', path: '/a/b', value: 1 }]), panic);
    assert.equal(
      applyError({ a: null }, [{ op: 'add', path: '/b', value: null }, { op: 'copy', from: '/b', path: '/c' }, { op: 'add', path: '/c/d', value: 1 }]),
      'PatchPanic: assignment to entry in nil map',
    );
    // A null read from the document is a nil slot: traversing it is an error, not a panic.
    assert.equal(applyError({ a: null }, [{ op: 'add', path: '/a/b', value: 1 }]), 'PatchApplyError: add operation does not apply: doc is missing path: "/a/b": missing value');
  });

  test('operations keep their order, fail as a whole, and an unknown op names itself', () => {
    assert.equal(applyError({ a: 1 }, [{ op: 'remove', path: '/a' }, { op: 'frobnicate', path: '/a' }]), 'PatchApplyError: Unexpected kind: frobnicate');
    assert.equal(applyError({}, [{ op: 'move', path: '/b' }]), 'PatchApplyError: move operation failed to decode from: operation, missing from field: missing value');
    assert.equal(applyError({}, [{ op: 'replace', path: 5 }]), 'PatchApplyError: replace operation failed to decode path: json: cannot unmarshal number into Go value of type string');
    assert.equal(applyError({}, [{ op: 'test', from: '/a' }]), 'PatchApplyError: test operation failed to decode path: operation missing path field: missing value');
    assert.equal(applyError('x', []), 'PatchApplyError: json: cannot unmarshal string into Go value of type jsonpatch.partialDoc');
  });

  test('copy re-encodes and counts bytes against kube\'s 3 MiB limit', () => {
    const big = 'x'.repeat(1024 * 1024);
    const doc = { a: big };
    const ops = [0, 1, 2].map((i) => ({ op: 'copy', from: '/a', path: `/c${i}` }));
    assert.equal(
      applyError(doc, ops),
      `PatchApplyError: Unable to complete the copy, the accumulated size increase of copy is ${3 * (big.length + 2)}, exceeding the limit ${jsonPatchMaxCopyBytes}`,
    );
    assert.deepEqual(apply({ a: { b: 1 } }, [{ op: 'copy', from: '/a', path: '/c' }, { op: 'add', path: '/c/d', value: 2 }]), { a: { b: 1 }, c: { b: 1, d: 2 } });
  });

  test('an empty document stays empty; the input document is never mutated', () => {
    assert.equal(apply(undefined, [{ op: 'add', path: '/a', value: 1 }]), undefined);
    const doc = { a: { b: [1, 2] } };
    const ops = [{ op: 'remove', path: '/a/b/0' }, { op: 'add', path: '/a/c', value: { d: 1 } }];
    const result = apply(doc, ops) as { a: { c: { d: number } } };
    assert.deepEqual(doc, { a: { b: [1, 2] } });
    result.a.c.d = 5;
    assert.deepEqual(ops[1], { op: 'add', path: '/a/c', value: { d: 1 } }, 'the result shares nothing with the patch');
    assert.deepEqual(apply({}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]), JSON.parse('{"__proto__":{"polluted":true}}'));
    assert.equal(({} as { polluted?: boolean }).polluted, undefined);
  });

  test('Equal: null matches {} and [] matches null, but null does not match []', () => {
    assert.equal(jsonDocumentsEqual(null, {}), true);
    assert.equal(jsonDocumentsEqual([], null), true);
    assert.equal(jsonDocumentsEqual(null, []), false);
    assert.equal(jsonDocumentsEqual({ a: 1 }, { a: '1' }), false);
  });
});

describe("kube's answers for JSON patch", () => {
  function statusOf(fn: () => unknown): StatusError {
    try {
      fn();
    } catch (err) {
      if (err instanceof StatusError) return err;
      throw err;
    }
    assert.fail('no StatusError');
  }

  test('a body that is not a list of operations is 400 with the Go decoder text; null is an empty patch', () => {
    assert.equal(statusOf(() => decodeJsonPatch({ op: 'add' })).status.message, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    assert.equal(statusOf(() => decodeJsonPatch('x')).status.message, 'json: cannot unmarshal string into Go value of type jsonpatch.Patch');
    const element = statusOf(() => decodeJsonPatch([{ op: 'test', path: '/a' }, 5, 'x']));
    assert.equal(element.status.code, 400);
    assert.equal(element.status.reason, 'BadRequest');
    assert.equal(element.status.message, 'json: cannot unmarshal number into Go value of type jsonpatch.Operation');
    assert.deepEqual(decodeJsonPatch(null), []);
    assert.deepEqual(decodeJsonPatch([null, { op: 'bogus' }]), [{}, { op: 'bogus' }]);
  });

  test('more than 10000 operations is 413', () => {
    const ops = Array.from({ length: maxJsonPatchOperations + 1 }, () => ({ op: 'test', path: '/a', value: 1 }));
    const status = statusOf(() => decodeJsonPatch(ops)).status;
    assert.equal(status.code, 413);
    assert.equal(status.reason, 'RequestEntityTooLarge');
    assert.equal(status.message, 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
    assert.equal(decodeJsonPatch(ops.slice(1)).length, maxJsonPatchOperations);
  });

  test('a patch that does not apply is the generic 422 with empty details; the library text is the cause', () => {
    const err = statusOf(() => applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }]));
    assert.deepEqual(err.status, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server rejected our request due to an error in our request',
      reason: 'Invalid',
      details: {},
      code: 422,
    });
    assert.ok(err.cause instanceof PatchApplyError);
    assert.equal(err.cause.message, 'testing value /a failed: test failed');
    const panicked = statusOf(() => applyJsonPatch({ a: [null] }, [{ op: 'test', path: '/a', value: [null] } as Operation]));
    assert.equal(panicked.status.code, 422);
    assert.ok(panicked.cause instanceof PatchPanic);
    const unknown = statusOf(() => applyJsonPatch({}, decodeJsonPatch([null])));
    assert.equal((unknown.cause as Error).message, 'Unexpected kind: unknown');
    assert.deepEqual(applyJsonPatch({ b: 1, a: [1] }, [{ op: 'add', path: '/a/-', value: 2 }]), { a: [1, 2], b: 1 });
  });

  test('under Strict or Warn validation a body that is not []jsonPatchOp is 400 "error decoding patch"', () => {
    const message = (v: unknown): string | undefined => statusOf(() => checkJsonPatchStrict(v)).status.message;
    assert.equal(message({}), 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp');
    assert.equal(message([1]), 'error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp');
    assert.equal(message([{ op: 'add', path: 5 }]), 'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.path of type string');
    assert.equal(message([{ op: true }]), 'error decoding patch: json: cannot unmarshal bool into Go struct field jsonPatchOp.op of type string');
    checkJsonPatchStrict(null);
    checkJsonPatchStrict([null, { op: null, Path: 5, value: { path: 1 } }]);
  });

  test('unknown and repeated operation fields are strict-decoding findings', () => {
    // kjson names them by path, the operation's index first (kube's field validation test).
    const ops = decodeJsonPatch([{ op: 'add', path: '/a', value: 1 }, { op: 'add', path: '/a', value: 1, foo: 1 }, null]);
    assert.deepEqual(jsonPatchFieldMessages(ops, ['[0].path', '[1].value.x']), ['json patch unknown field "[1].foo"', 'json patch duplicate field "[0].path"']);
  });
});
