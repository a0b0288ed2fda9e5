import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRequestInfo } from '../../request/request-info.js';
import type { ObjectCount } from './object-counts.js';
import { DroppedRequestsTracker } from './retry-after.js';
import { WatchTracker } from './watch-tracker.js';
import { workEstimator } from './work-estimator.js';

function setup(counts: Record<string, ObjectCount>, opts: { maxSeats?: number; watchList?: boolean; consistentListFromCache?: boolean } = {}) {
  const watches = new WatchTracker();
  const observed: number[] = [];
  const estimate = workEstimator({
    counts: { get: (r) => counts[r] ?? 'unknown' },
    watches,
    maxSeats: () => opts.maxSeats ?? 10,
    watchList: opts.watchList ?? true,
    consistentListFromCache: opts.consistentListFromCache ?? true,
    observeWatchCount: (level, fs, n) => {
      assert.deepEqual([level, fs], ['global-default', 'global-default']);
      observed.push(n);
    },
  });
  const run = (method: string, path: string, query = '') => {
    const q = new URLSearchParams(query);
    return estimate(parseRequestInfo(method, path, q), q, 'global-default', 'global-default');
  };
  return { run, watches, observed };
}

describe('APF work estimator', () => {
  it('lists: one seat per 100 objects processed, by where the list is served from', () => {
    const { run } = setup({ pods: 1000, 'deployments.apps': 250 });
    assert.equal(run('GET', '/api/v1/pods').initialSeats, 10, 'cache: every stored object');
    assert.equal(run('GET', '/apis/apps/v1/deployments').initialSeats, 3);
    assert.equal(run('GET', '/api/v1/pods', 'limit=100&continue=abc').initialSeats, 2, 'etcd, paged: twice the page');
    assert.equal(run('GET', '/api/v1/pods', 'limit=100&continue=abc&labelSelector=a%3Db').initialSeats, 10, 'etcd with a selector: all plus the page, capped');
    assert.equal(run('GET', '/apis/apps/v1/deployments', 'limit=50&resourceVersion=7').initialSeats, 1, 'legacy exact: etcd, 2 x 50');
    assert.equal(run('GET', '/apis/apps/v1/deployments', 'limit=abc').initialSeats, 10, 'bad options: the maximum');
    assert.equal(run('GET', '/api/v1/namespaces/a/pods/p').initialSeats, 1, 'get');
  });

  it('without ConsistentListFromCache a list without resourceVersion reads etcd', () => {
    const { run } = setup({ 'deployments.apps': 250 }, { consistentListFromCache: false });
    assert.equal(run('GET', '/apis/apps/v1/deployments').initialSeats, 5);
    assert.equal(run('GET', '/apis/apps/v1/deployments', 'resourceVersion=0').initialSeats, 3);
  });

  it('unknown counts cost one seat, stale ones the maximum; seats capped by the level', () => {
    assert.equal(setup({}).run('GET', '/api/v1/secrets').initialSeats, 1);
    assert.equal(setup({ secrets: 'stale' }).run('GET', '/api/v1/secrets').initialSeats, 10);
    assert.equal(setup({ secrets: 5000 }, { maxSeats: 4 }).run('GET', '/api/v1/secrets').initialSeats, 4);
  });

  it('watches cost their initial list with WatchList on, one seat otherwise', () => {
    assert.equal(setup({ pods: 500 }).run('GET', '/api/v1/pods', 'watch=true').initialSeats, 5);
    assert.equal(setup({ pods: 500 }, { watchList: false }).run('GET', '/api/v1/pods', 'watch=true').initialSeats, 1);
  });

  it('writes: final seats from the watchers of the resource', () => {
    const { run, watches, observed } = setup({});
    const watch = parseRequestInfo('GET', '/api/v1/namespaces/a/configmaps', new URLSearchParams('watch=1'));
    const forgets = Array.from({ length: 9 }, () => watches.register(watch));
    assert.deepEqual(run('POST', '/api/v1/namespaces/a/configmaps'), { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 });
    forgets.push(watches.register(watch));
    assert.deepEqual(run('POST', '/api/v1/namespaces/b/configmaps'), { initialSeats: 1, finalSeats: 1, additionalLatencyMs: 5 });
    for (let i = 0; i < 190; i++) forgets.push(watches.register(watch));
    // 200 watchers: 20 seats x 5 ms reshaped to the 10-seat cap for 10 ms.
    assert.deepEqual(run('DELETE', '/api/v1/namespaces/a/configmaps/x'), { initialSeats: 1, finalSeats: 10, additionalLatencyMs: 10 });
    assert.equal(run('POST', '/api/v1/namespaces/a/secrets').finalSeats, 0, 'another resource');
    assert.deepEqual(observed, [9, 10, 200, 0], 'apiserver_flowcontrol_watch_count_samples');
    for (const f of forgets) f();
    assert.equal(watches.interestedWatchCount(watch), 0);
  });

  it('serviceaccounts/token writes make no watch events', () => {
    const { run, watches } = setup({});
    const watch = parseRequestInfo('GET', '/api/v1/serviceaccounts', new URLSearchParams('watch=1'));
    for (let i = 0; i < 50; i++) watches.register(watch);
    assert.equal(run('POST', '/api/v1/namespaces/a/serviceaccounts/default/token').finalSeats, 0);
    assert.equal(run('PUT', '/api/v1/namespaces/a/serviceaccounts/default').finalSeats, 5);
  });
});

describe('APF Retry-After', () => {
  it('starts at 1, doubles under sustained rejections (at most 32), comes down by one when they stop', () => {
    let now = 1000;
    const t = new DroppedRequestsTracker(() => now);
    assert.equal(t.retryAfter('l'), 1);
    for (let i = 0; i < 5; i++) t.record('l');
    now++;
    t.record('l');
    assert.equal(t.retryAfter('l'), 2);
    for (let s = 0; s < 40; s++) {
      now++;
      for (let i = 0; i < 200; i++) t.record('l');
    }
    assert.equal(t.retryAfter('l'), 32);
    now += 100;
    t.record('l');
    assert.equal(t.retryAfter('l'), 31);
    assert.equal(t.retryAfter('other'), 1);
  });
});
