import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FlagError, repeatedValues, stringSliceFlag } from './flag-values.js';

describe('repeatable and slice flag values', () => {
  it('collects every occurrence in both forms, up to "--"', () => {
    assert.deepEqual(repeatedValues(['--a=1', '--b', 'x', '--a', '2,3', '--a=', '--', '--a=4'], 'a'), ['1', '2,3', '']);
    assert.equal(repeatedValues(['--ab=1'], 'a'), undefined);
  });

  it("reads pflag string slices: comma separated, Go CSV quoting, each occurrence appended", () => {
    assert.deepEqual(stringSliceFlag('f', ['a,b', 'c']), ['a', 'b', 'c']);
    assert.deepEqual(stringSliceFlag('f', ''), []);
    assert.deepEqual(stringSliceFlag('f', 'a,,b'), ['a', '', 'b']);
    assert.deepEqual(stringSliceFlag('f', '"x{1,3}",y'), ['x{1,3}', 'y']);
    assert.deepEqual(stringSliceFlag('f', '"say ""hi"""'), ['say "hi"']);
    assert.deepEqual(stringSliceFlag('f', undefined), []);
    assert.throws(() => stringSliceFlag('f', 'a"b'), (e: unknown) => e instanceof FlagError && /bare " in non-quoted-field/.test(e.message));
    assert.throws(() => stringSliceFlag('f', '"open'), /extraneous or missing " in quoted-field/);
  });
});
