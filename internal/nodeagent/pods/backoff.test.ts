import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Backoff, goDuration } from './backoff.js';

describe('crash back-off', () => {
  it('starts at 10 s, doubles to 5 min, and starts over after 10 min idle', () => {
    let now = 0;
    const b = new Backoff(10_000, 300_000, () => now);
    const steps: number[] = [];
    for (let i = 0; i < 7; i++) {
      b.next('k', now);
      steps.push(b.get('k'));
      now += 1000;
    }
    assert.deepEqual(steps, [10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
    now += 600_001;
    b.next('k', now);
    assert.equal(b.get('k'), 10_000);
  });
  it('is in back-off until the duration passed since the event', () => {
    let now = 1000;
    const b = new Backoff(10_000, 300_000, () => now);
    assert.equal(b.isInBackOffSince('k', now), false);
    b.next('k', 1000);
    now = 5000;
    assert.equal(b.isInBackOffSince('k', 1000), true);
    assert.equal(b.isInBackOffSinceUpdate('k'), true);
    now = 11_001;
    assert.equal(b.isInBackOffSince('k', 1000), false);
  });
  it("prints durations as Go's time.Duration does", () => {
    assert.deepEqual([10_000, 80_000, 160_000, 300_000, 523, 1500, 3_600_000].map(goDuration), ['10s', '1m20s', '2m40s', '5m0s', '523ms', '1.5s', '1h0m0s']);
  });
});
