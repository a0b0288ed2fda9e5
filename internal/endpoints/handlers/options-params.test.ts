import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../../apierrors/status-error.js';
import { parseDeleteOptions, parseListOptions } from './options.js';

const fields = { extra: [], style: 'meta' } as const;
const list = (q: string) => parseListOptions(new URLSearchParams(q), fields, true, false, true);

function badRequest(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    assert.equal(err.status.code, 400);
    return err.status.message ?? '';
  }
  assert.fail('expected a 400');
}

test('boolean list parameters are read as kube reads them: only 0 and false (any case) are false', () => {
  assert.equal(list('').watch, false);
  assert.equal(list('watch=').watch, true, 'present and empty is true (Convert_Slice_string_To_bool)');
  for (const v of ['1', 'true', 'yes', 'f', 'no', 'x']) assert.equal(list(`watch=${v}`).watch, true, v);
  for (const v of ['0', 'false', 'FALSE', 'False', 'fAlSe']) assert.equal(list(`watch=${v}`).watch, false, v);
  assert.equal(list('watch=false&watch=true').watch, false, 'the first value counts');
  assert.equal(list('watch=1&allowWatchBookmarks=').allowWatchBookmarks, true);
  assert.equal(list('watch=1&allowWatchBookmarks=0').allowWatchBookmarks, false);
  assert.equal(list('watch=1&sendInitialEvents=no&resourceVersionMatch=NotOlderThan').sendInitialEvents, true);
});

test('int64 list parameters: present but empty or not a number is 400 with strconv.ParseInt\'s message', () => {
  assert.equal(list('').limit, 0);
  assert.equal(list('limit=5').limit, 5);
  assert.equal(list('limit=%2B5').limit, 5);
  assert.equal(badRequest(() => list('limit=')), 'strconv.ParseInt: parsing "": invalid syntax');
  assert.equal(badRequest(() => list('limit=1.5')), 'strconv.ParseInt: parsing "1.5": invalid syntax');
  assert.equal(badRequest(() => list('watch=1&timeoutSeconds=')), 'strconv.ParseInt: parsing "": invalid syntax');
  assert.equal(badRequest(() => list('limit=9223372036854775808')), 'strconv.ParseInt: parsing "9223372036854775808": value out of range');
  assert.ok(list('limit=9223372036854775807').limit > 2 ** 62, 'an int64 past 2^53 is a (huge) limit, not an error');
  assert.equal(list('watch=1&timeoutSeconds=-3').timeoutSeconds, -3);
});

test('delete query parameters: orphanDependents and gracePeriodSeconds as the parameter codec reads them', () => {
  assert.equal(parseDeleteOptions(undefined, new URLSearchParams('orphanDependents=')).orphanDependents, true);
  assert.equal(parseDeleteOptions(undefined, new URLSearchParams('orphanDependents=False')).orphanDependents, false);
  assert.equal(parseDeleteOptions(undefined, new URLSearchParams('')).orphanDependents, undefined);
  assert.equal(badRequest(() => parseDeleteOptions(undefined, new URLSearchParams('gracePeriodSeconds='))), 'strconv.ParseInt: parsing "": invalid syntax');
  assert.equal(parseDeleteOptions(undefined, new URLSearchParams('gracePeriodSeconds=30')).gracePeriodSeconds, 30);
});

test('force on an apply patch: false only for 0 and false, as kube reads a *bool parameter', async () => {
  const { parseWriteOptions } = await import('./write-options.js');
  const force = (v: string) => parseWriteOptions(new URLSearchParams(`fieldManager=m&force=${v}`), 'PatchOptions', true).force;
  assert.equal(force('true'), true);
  assert.equal(force('True'), true);
  assert.equal(force('yes'), true);
  assert.equal(force(''), true);
  assert.equal(force('FALSE'), false);
  assert.equal(force('0'), false);
  assert.equal(parseWriteOptions(new URLSearchParams('fieldManager=m'), 'PatchOptions', true).force, undefined);
});

test('fieldManager: kube\'s errors up to its length limit; past it, the length error alone (no answer growing with its square)', async () => {
  const { parseWriteOptions } = await import('./write-options.js');
  const invalid = (v: string): string => {
    try {
      parseWriteOptions(new URLSearchParams([['fieldManager', v]]), 'CreateOptions');
    } catch (err) {
      assert.ok(err instanceof StatusError);
      assert.equal(err.status.code, 422);
      return err.status.message ?? '';
    }
    assert.fail('expected a 422');
  };
  assert.equal(
    invalid('a\u0000b\u0001'),
    'CreateOptions.meta.k8s.io "" is invalid: [fieldManager: Invalid value: "a\\x00b\\x01": invalid character U+0000 (at position 1), fieldManager: Invalid value: "a\\x00b\\x01": invalid character U+0001 (at position 3)]',
  );
  const long = invalid('\u0000'.repeat(100_000));
  assert.equal(long, 'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
});
