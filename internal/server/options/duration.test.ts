import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatGoDuration, parseGoDuration } from './duration.js';

describe('Go durations', () => {
  it('parses what kube flags take', () => {
    assert.equal(parseGoDuration('5m0s'), 300_000);
    assert.equal(parseGoDuration('1m0s'), 60_000);
    assert.equal(parseGoDuration('1h30m'), 5_400_000);
    assert.equal(parseGoDuration('300ms'), 300);
    assert.equal(parseGoDuration('1.5s'), 1500);
    assert.equal(parseGoDuration('0'), 0);
    assert.equal(parseGoDuration('-2s'), -2000);
  });
  it('refuses malformed durations with Go messages', () => {
    assert.throws(() => parseGoDuration('5'), /missing unit in duration "5"/);
    assert.throws(() => parseGoDuration('abc'), /invalid duration "abc"/);
    assert.throws(() => parseGoDuration('5x'), /invalid duration/);
    assert.throws(() => parseGoDuration(''), /invalid duration/);
  });
  it('formats as Go prints', () => {
    assert.equal(formatGoDuration(300_000), '5m0s');
    assert.equal(formatGoDuration(3_600_000), '1h0m0s');
    assert.equal(formatGoDuration(60_000), '1m0s');
    assert.equal(formatGoDuration(1500), '1.5s');
  });
});
