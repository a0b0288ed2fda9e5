import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenBucket } from './token-bucket.js';

describe('audit token bucket', () => {
  it('starts full, then makes each caller wait its turn at qps', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 2, () => now);
    assert.deepEqual([bucket.reserve(), bucket.reserve()], [0, 0]);
    // Reservations queue: the third waits one interval, the fourth two.
    assert.equal(Math.round(bucket.reserve()), 100);
    assert.equal(Math.round(bucket.reserve()), 200);
    now = 1000;
    // A second refills ten tokens, capped at the burst of two.
    assert.deepEqual([bucket.reserve(), bucket.reserve()], [0, 0]);
    assert.equal(Math.round(bucket.reserve()), 100);
  });

  it('refuses a rate or burst that is not positive', () => {
    assert.throws(() => new TokenBucket(0, 1), /positive rate and burst/);
    assert.throws(() => new TokenBucket(1, 0), /positive rate and burst/);
  });
});
