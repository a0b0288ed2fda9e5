import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { RequestWaitGroup } from './request-wait-group.js';
import { LifecycleSignal } from './signals.js';
import { WatchWaitGroup } from './watch-wait-group.js';

const response = (): ServerResponse => ({}) as ServerResponse;

describe('lifecycle signal', () => {
  it('fires once; wait resolves before and after', async () => {
    const s = new LifecycleSignal('NotAcceptingNewRequest');
    const early = s.wait();
    assert.equal(s.signaled, false);
    s.signal();
    s.signal();
    await early;
    await s.wait();
    assert.equal(s.signaled, true);
  });
});

describe('request wait group', () => {
  it('waits for the requests in flight, then admits none', async () => {
    const g = new RequestWaitGroup();
    const a = response();
    const b = response();
    assert.equal(g.add(a), true);
    assert.equal(g.add(b), true);
    let drained = false;
    const waiting = g.wait().then(() => (drained = true));
    assert.equal(g.add(response()), false, 'nothing joins once the shutdown waits');
    g.done(a);
    g.done(a);
    await new Promise((r) => setImmediate(r));
    assert.equal(drained, false);
    g.done(b);
    await waiting;
    assert.equal(g.count, 0);
  });

  it('an empty group drains at once', async () => {
    await new RequestWaitGroup().wait();
  });
});

describe('watch wait group', () => {
  it('ends the watches at no less than 200 a second and resolves when they are gone', async () => {
    const g = new WatchWaitGroup();
    const watches = Array.from({ length: 20 }, () => g.add() as AbortController);
    // Each watch's handler ends it (and leaves the group) when its signal aborts.
    const endedAt: number[] = [];
    for (const w of watches) w.signal.addEventListener('abort', () => {
      endedAt.push(Date.now());
      setImmediate(() => g.done(w));
    });
    const started = Date.now();
    const result = await g.drain(60_000);
    assert.deepEqual(result, { activeWatchesBefore: 20, activeWatchesAfter: 0 });
    assert.equal(g.add(), undefined, 'no new watch once draining');
    const took = Date.now() - started;
    // 20 watches at 200/s: the first at once, the last about 95 ms later (not all at once, not the grace).
    assert.ok(took >= 80 && took < 2000, `took ${took}ms`);
    assert.ok((endedAt[1] as number) - (endedAt[0] as number) < 50);
  });

  it('spreads a crowd over the grace period when that is slower than 200 a second, and stops waiting at the grace', async () => {
    const g = new WatchWaitGroup();
    const watches = Array.from({ length: 100 }, () => g.add() as AbortController);
    let aborted = 0;
    for (const w of watches) w.signal.addEventListener('abort', () => aborted++);
    // Nobody leaves: the drain gives up at the grace period (100 in 300 ms is over 200/s, so all get the signal).
    const result = await g.drain(300);
    assert.deepEqual(result, { activeWatchesBefore: 100, activeWatchesAfter: 100 });
    assert.ok(aborted >= 90, `${aborted} signalled`);
    g.abortAll();
    assert.equal(aborted, 100);
  });
});
