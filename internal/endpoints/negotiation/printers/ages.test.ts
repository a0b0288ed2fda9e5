/** Ages and durations: kube's HumanDuration and ShortHumanDuration thresholds, and timestamp reading. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { creationAge, humanDuration, parseTimestamp, shortHumanDuration, translateTimestampSince } from './ages.js';
import { ago, day, hour, minute, now } from './testing.js';

const s = 1000;
const h = 3600 * s;

describe('humanDuration', () => {
  const cases: Array<[number, string]> = [
    [1 * s, '1s'],
    [70 * s, '70s'],
    [119 * s, '119s'],
    [120 * s, '2m'],
    [190 * s, '3m10s'],
    [9 * 60 * s + 59 * s, '9m59s'],
    [10 * 60 * s + 30 * s, '10m'],
    [70 * 60 * s, '70m'],
    [179 * 60 * s, '179m'],
    [3 * h, '3h'],
    [3 * h + 25 * 60 * s, '3h25m'],
    [8 * h + 59 * 60 * s, '8h'],
    [47 * h, '47h'],
    [49 * h, '2d1h'],
    [3 * 24 * h, '3d'],
    [(8 * 24 + 2) * h, '8d'],
    [367 * 24 * h, '367d'],
    [(365 * 2 * 24 + 25) * h, '2y1d'],
    [365 * 3 * 24 * h, '3y'],
    [(365 * 8 * 24 + 2) * h, '8y'],
  ];
  for (const [ms, want] of cases) {
    it(`${ms}ms is ${want}`, () => assert.equal(humanDuration(ms), want));
  }
  it('treats up to two seconds in the future as now, and more as invalid', () => {
    assert.equal(humanDuration(-500), '0s');
    assert.equal(humanDuration(-1500), '0s');
    assert.equal(humanDuration(-2000), '<invalid>');
  });
});

describe('shortHumanDuration', () => {
  const cases: Array<[number, string]> = [
    [59 * s, '59s'],
    [90 * s, '1m'],
    [59 * 60 * s, '59m'],
    [23 * h, '23h'],
    [49 * h, '2d'],
    [364 * 24 * h, '364d'],
    [366 * 24 * h, '1y'],
    [-3 * s, '<invalid>'],
  ];
  for (const [ms, want] of cases) {
    it(`${ms}ms is ${want}`, () => assert.equal(shortHumanDuration(ms), want));
  }
});

describe('timestamps', () => {
  it('reads RFC 3339 with offsets and microseconds', () => {
    assert.equal(parseTimestamp('2025-06-01T12:00:00Z'), now.getTime());
    assert.equal(parseTimestamp('2025-06-01T14:00:00+02:00'), now.getTime());
    assert.equal(parseTimestamp('2025-06-01T11:59:59.250000Z'), now.getTime() - 750);
  });
  it('answers undefined for the zero time, null and garbage', () => {
    assert.equal(parseTimestamp('0001-01-01T00:00:00Z'), undefined);
    assert.equal(parseTimestamp(null), undefined);
    assert.equal(parseTimestamp(undefined), undefined);
    assert.equal(parseTimestamp('yesterday'), undefined);
  });
  it('prints a missing timestamp as <unknown>', () => {
    assert.equal(translateTimestampSince(undefined, now), '<unknown>');
    assert.equal(translateTimestampSince(ago(3 * day + 4 * hour), now), '3d4h');
    assert.equal(translateTimestampSince(ago(5 * minute + 30), now), '5m30s');
  });
  it('reads the Age of an object from its creationTimestamp', () => {
    assert.equal(creationAge({ metadata: { creationTimestamp: ago(42) } }, now), '42s');
    assert.equal(creationAge({ metadata: {} }, now), '<unknown>');
    assert.equal(creationAge({}, now), '<unknown>');
  });
});
