import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CachedEntry } from './entries.js';
import { WriteOffers } from './offers.js';

const entry = (key: string, rv: number): CachedEntry => ({ key, rv, bytes: Buffer.from(`{"rv":${rv}}`) });
const v = (s: string): Buffer => Buffer.from(s);

describe('WriteOffers', () => {
  it('gives an offer back for the same key, revision and stored value, once', () => {
    const o = new WriteOffers();
    const e = entry('/a', 5);
    o.offer(e, v('x'));
    assert.equal(o.take('/a', 5, v('x')), e);
    assert.equal(o.take('/a', 5, v('x')), undefined);
    assert.equal(o.size, 0);
  });

  it('refuses another key or another value at the revision, and drops the offer anyway', () => {
    const o = new WriteOffers();
    o.offer(entry('/a', 5), v('x'));
    assert.equal(o.take('/b', 5, v('x')), undefined);
    o.offer(entry('/a', 6), v('x'));
    assert.equal(o.take('/a', 6, v('y')), undefined);
    assert.equal(o.size, 0);
  });

  it('drops offers whose revision an event has passed, even out of order', () => {
    const o = new WriteOffers();
    o.offer(entry('/a', 7), v('x'));
    o.offer(entry('/b', 5), v('x'));
    o.offer(entry('/c', 9), v('x'));
    assert.equal(o.take('/d', 8, v('x')), undefined);
    assert.equal(o.size, 1, '7 and 5 are gone');
    const late = new WriteOffers();
    late.offer(entry('/c', 9), v('x'));
    late.offer(entry('/b', 5), v('x'));
    assert.equal(late.take('/d', 7, v('x')), undefined);
    // 5 sits behind 9 and stays until a sweep reaches it or the bound drops it: never taken wrongly.
    assert.ok(late.take('/c', 9, v('x')));
    assert.equal(late.size, 0);
  });

  it('keeps at most 1024 offers, dropping the oldest', () => {
    const o = new WriteOffers();
    for (let rv = 1; rv <= 1500; rv++) o.offer(entry(`/k${rv}`, rv), v('x'));
    assert.equal(o.size, 1024);
    assert.equal(o.take('/k1', 1, v('x')), undefined);
    assert.ok(o.take('/k1500', 1500, v('x')));
  });

  it('clear drops everything', () => {
    const o = new WriteOffers();
    o.offer(entry('/a', 1), v('x'));
    o.clear();
    assert.equal(o.size, 0);
  });
});

describe('WriteOffers in flight', () => {
  it('an event waits for the write in flight on its key, and not once the offer is there', async () => {
    const o = new WriteOffers();
    assert.equal(o.waitFor('/a', 3), undefined, 'no write in flight');
    const done = o.begin('/a');
    const again = o.begin('/a');
    const wait = o.waitFor('/a', 3);
    assert.ok(wait);
    let settled = false;
    void wait.then(() => (settled = true));
    done();
    done();
    await new Promise((r) => setImmediate(r));
    assert.equal(settled, false, 'the second write on the key is still in flight');
    again();
    await wait;
    assert.equal(o.waitFor('/a', 3), undefined, 'nothing in flight any more');
    const third = o.begin('/b');
    o.offer(entry('/b', 4), v('x'));
    assert.equal(o.waitFor('/b', 4), undefined, 'the offer is already there');
    third();
  });

  it('gives up waiting after a few turns of the event loop', async () => {
    const o = new WriteOffers();
    const done = o.begin('/a');
    const started = Date.now();
    await o.waitFor('/a', 1);
    assert.ok(Date.now() - started < 1000);
    done();
  });
});
