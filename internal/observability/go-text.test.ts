import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatGoDurationNs, goQuote, GoDuration } from './go-text.js';

describe('goQuote (strconv.Quote)', () => {
  it('quotes printable text as is, escapes quotes and backslashes', () => {
    assert.equal(goQuote('hello world'), '"hello world"');
    assert.equal(goQuote(''), '""');
    assert.equal(goQuote('say "hi" \\o/'), '"say \\"hi\\" \\\\o/"');
  });

  it('escapes control characters as Go does', () => {
    assert.equal(goQuote('a\nb\tc\rd'), '"a\\nb\\tc\\rd"');
    assert.equal(goQuote('\x07\x08\x0b\x0c'), '"\\a\\b\\v\\f"');
    assert.equal(goQuote('\x00\x1b\x7f'), '"\\x00\\x1b\\x7f"');
  });

  it('keeps printable Unicode, escapes unprintable code points', () => {
    assert.equal(goQuote('héllo 世界 😀'), '"héllo 世界 😀"');
    assert.equal(goQuote('a\u00a0b'), '"a\\u00a0b"', 'a no-break space is not printable to Go');
    assert.equal(goQuote('\u2028'), '"\\u2028"');
    assert.equal(goQuote('\u{e0001}'), '"\\U000e0001"');
    assert.equal(goQuote('\ud800'), '"\\ufffd"');
  });

  it('QuoteToASCII escapes everything outside ASCII', () => {
    assert.equal(goQuote('é😀', true), '"\\u00e9\\U0001f600"');
  });
});

describe('time.Duration.String', () => {
  const cases: Array<[number, string]> = [
    [0, '0s'],
    [1, '1ns'],
    [999, '999ns'],
    [1_000, '1µs'],
    [1_500, '1.5µs'],
    [1_234_567, '1.234567ms'],
    [2_000_000, '2ms'],
    [1e9, '1s'],
    [1.5e9, '1.5s'],
    [60e9, '1m0s'],
    [90.25e9, '1m30.25s'],
    [3600e9, '1h0m0s'],
    [3723.000000001e9, '1h2m3.000000001s'],
    [-1_500_000, '-1.5ms'],
  ];
  for (const [ns, text] of cases) {
    it(`${ns}ns is ${text}`, () => assert.equal(formatGoDurationNs(ns), text));
  }

  it('GoDuration prints and serialises as the Go string', () => {
    const d = new GoDuration(2_500_000);
    assert.equal(String(d), '2.5ms');
    assert.equal(JSON.stringify({ d }), '{"d":"2.5ms"}');
  });
});
