/** Go's text forms of time.Duration and RFC 3339 timestamps, as kube's JSON uses them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProtobufError } from './errors.js';
import { formatGoDuration, formatRfc3339, parseGoDuration, parseRfc3339 } from './go-time.js';

const S = 1_000_000_000n;

test('formatGoDuration matches time.Duration.String()', () => {
  const cases: [bigint, string][] = [
    [0n, '0s'],
    [1n, '1ns'],
    [999n, '999ns'],
    [1500n, '1.5µs'],
    [1_500_000n, '1.5ms'],
    [300_000_000n, '300ms'],
    [S, '1s'],
    [S + 500_000_000n, '1.5s'],
    [60n * S, '1m0s'],
    [90n * S, '1m30s'],
    [3600n * S, '1h0m0s'],
    [3723n * S + 500_000_000n, '1h2m3.5s'],
    [-5n * S, '-5s'],
    [100n * 3600n * S, '100h0m0s'],
    [-(2n ** 63n), '-2562047h47m16.854775808s'],
  ];
  for (const [ns, text] of cases) assert.equal(formatGoDuration(ns), text, `${ns}`);
});

test('parseGoDuration matches time.ParseDuration', () => {
  const cases: [string, bigint][] = [
    ['0', 0n],
    ['0s', 0n],
    ['1m0s', 60n * S],
    ['1.5h', 5400n * S],
    ['300ms', 300_000_000n],
    ['1µs', 1000n],
    ['1us', 1000n],
    ['-1m30s', -90n * S],
    ['+2s', 2n * S],
    ['1h2m3.5s', 3723n * S + 500_000_000n],
    ['.5s', 500_000_000n],
  ];
  for (const [text, ns] of cases) assert.equal(parseGoDuration(text, 'x'), ns, text);
  for (const bad of ['', '1', '1x', 's', '1.s.', '-', '3000000h']) {
    assert.throws(() => parseGoDuration(bad, 'x'), ProtobufError, bad);
  }
});

test('RFC 3339: seconds and microseconds forms, offsets normalised to UTC', () => {
  assert.equal(formatRfc3339(1704164645, 0, false), '2024-01-02T03:04:05Z');
  assert.equal(formatRfc3339(1704164645, 123456789, true), '2024-01-02T03:04:05.123456Z');
  assert.equal(formatRfc3339(0, 0, true), '1970-01-01T00:00:00.000000Z');
  assert.equal(formatRfc3339(-62135596800, 0, false), '0001-01-01T00:00:00Z');
  assert.deepStrictEqual(parseRfc3339('2024-01-02T03:04:05Z', 'x'), { seconds: 1704164645, nanos: 0 });
  assert.deepStrictEqual(parseRfc3339('2024-01-02T05:04:05.5+02:00', 'x'), { seconds: 1704164645, nanos: 500_000_000 });
  assert.deepStrictEqual(parseRfc3339('2024-01-01T22:04:05-05:00', 'x'), { seconds: 1704164645, nanos: 0 });
  assert.deepStrictEqual(parseRfc3339('0001-01-01T00:00:00Z', 'x'), { seconds: -62135596800, nanos: 0 });
  for (const bad of ['', '2024-01-02', '2024-01-02 03:04:05Z', '2024-13-02T03:04:05Z', '2024-02-30T03:04:05Z', '2024-01-02T03:04:05']) {
    assert.throws(() => parseRfc3339(bad, 'x'), ProtobufError, bad);
  }
});
