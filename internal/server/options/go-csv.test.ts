import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readGoCsv } from './go-csv.js';
import { stringSliceFlag } from './string-slice.js';

describe("Go's encoding/csv", () => {
  it('reads records, skipping empty lines, with CRLF and a last line without newline', () => {
    assert.deepEqual(readGoCsv('a,b,c\n\nd,,f\r\n,\ng'), [['a', 'b', 'c'], ['d', '', 'f'], ['', ''], ['g']]);
    assert.deepEqual(readGoCsv(''), []);
    assert.deepEqual(readGoCsv(' '), [[' ']]);
  });

  it('reads quoted fields with commas, doubled quotes and newlines', () => {
    assert.deepEqual(readGoCsv('t,u,1,"a,b"\n"x""y",z\n"multi\nline",end'), [['t', 'u', '1', 'a,b'], ['x"y', 'z'], ['multi\nline', 'end']]);
    assert.deepEqual(readGoCsv('"a",'), [['a', '']]);
  });

  it("refuses bare and stray quotes with Go's messages", () => {
    assert.throws(() => readGoCsv('ok\nab"c,d'), { message: 'parse error on line 2, column 3: bare " in non-quoted-field' });
    assert.throws(() => readGoCsv('"a"b,c'), { message: 'parse error on line 1, column 3: extraneous or missing " in quoted-field' });
    assert.throws(() => readGoCsv('"abc'), { message: 'parse error on line 1, column 6: extraneous or missing " in quoted-field' });
    assert.throws(() => readGoCsv('"a\nb" c'), { message: 'record on line 1; parse error on line 2, column 2: extraneous or missing " in quoted-field' });
  });

  it('reads string-slice flag values as one record, as pflag does', () => {
    assert.deepEqual(stringSliceFlag('x', undefined), []);
    assert.deepEqual(stringSliceFlag('x', ''), []);
    assert.deepEqual(stringSliceFlag('x', 'X-Remote-User,X-Other'), ['X-Remote-User', 'X-Other']);
    assert.deepEqual(stringSliceFlag('x', '"a,b",c'), ['a,b', 'c']);
    assert.throws(() => stringSliceFlag('requestheader-group-headers', 'a"b'), {
      message: 'invalid argument "a\\"b" for "--requestheader-group-headers" flag: parse error on line 1, column 2: bare " in non-quoted-field',
    });
  });
});
