import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maxNestingDepth, nestedDeeperThan, nestingDepthError } from './nesting-depth.js';
import { countKeys, parseStrictJson } from './strict-json.js';
import { parseBodyStrict } from './body.js';
import { StatusError } from '../../apierrors/status-error.js';

const objects = (depth: number): string => `${'{"x":'.repeat(depth)}1${'}'.repeat(depth)}`;
const arrays = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

test('10,000 levels decode; the 10,001st opening bracket is Go\'s "exceeded max depth"', () => {
  assert.equal(nestingDepthError(objects(maxNestingDepth)), undefined);
  assert.equal(nestingDepthError(objects(maxNestingDepth + 1)), "invalid character '{' exceeded max depth");
  assert.equal(nestingDepthError(arrays(maxNestingDepth + 1)), "invalid character '[' exceeded max depth");
  // Brackets inside strings do not nest.
  assert.equal(nestingDepthError(`{"a":"${'['.repeat(20_000)}"}`), undefined);
  assert.equal(nestingDepthError(`{"a":"\\"${'{'.repeat(20_000)}"}`), undefined);
});

test('a 10,000-deep body parses without overflowing the stack (countKeys keeps its own stack)', () => {
  const parsed = parseStrictJson(objects(maxNestingDepth));
  assert.equal(countKeys(parsed.value), maxNestingDepth);
  assert.equal(nestedDeeperThan(parsed.value, maxNestingDepth), false);
  assert.equal(nestedDeeperThan(parsed.value, maxNestingDepth - 1), true);
});

test('a body 20,000 deep is 400 with kube\'s decoder message', () => {
  assert.throws(
    () => parseBodyStrict(Buffer.from(`{"kind":"ConfigMap","zz":${objects(20_000)}}`), 'json'),
    (err: unknown) => err instanceof StatusError && err.status.code === 400 && err.status.message === "couldn't get version/kind; json parse error: invalid character '{' exceeded max depth",
  );
});
