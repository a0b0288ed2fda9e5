import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatMicroTime, nowMicros, parseMicroTime, rfc3339NanoLocal } from './micro-time.js';

describe('audit MicroTime', () => {
  it('formats epoch microseconds as RFC 3339 UTC with six fraction digits', () => {
    const micros = Date.UTC(2025, 0, 2, 3, 4, 5) * 1000 + 123_456;
    assert.equal(formatMicroTime(micros), '2025-01-02T03:04:05.123456Z');
    assert.equal(formatMicroTime(micros - 123_456 + 7), '2025-01-02T03:04:05.000007Z');
    assert.equal(formatMicroTime(micros + 1_000_000), '2025-01-02T03:04:06.123456Z', 'the cached second moves on');
    assert.equal(parseMicroTime('2025-01-02T03:04:05.123456Z'), micros);
  });

  it('reads the clock to the microsecond, near Date.now()', () => {
    const t = nowMicros();
    assert.ok(Number.isInteger(t));
    assert.ok(Math.abs(t / 1000 - Date.now()) < 1000);
  });

  it('prints RFC3339Nano in local time without trailing zeros (legacy format)', () => {
    const previous = process.env.TZ;
    try {
      process.env.TZ = 'UTC';
      assert.equal(rfc3339NanoLocal('2025-01-02T03:04:05.120000Z'), '2025-01-02T03:04:05.12Z');
      assert.equal(rfc3339NanoLocal('2025-01-02T03:04:05.000000Z'), '2025-01-02T03:04:05Z');
      process.env.TZ = 'Asia/Kolkata';
      assert.equal(rfc3339NanoLocal('2025-01-02T03:04:05.000001Z'), '2025-01-02T08:34:05.000001+05:30');
    } finally {
      if (previous === undefined) delete process.env.TZ;
      else process.env.TZ = previous;
    }
  });
});
