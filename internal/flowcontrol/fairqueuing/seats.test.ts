import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PriorityLevelSpec } from '../interface.js';
import { computeConcurrencyAllocation } from './concurrency-allocation.js';
import { computeLevelSeats, effectiveMaxSeats, initialCurrentCL } from './seats.js';

/** kube 1.33's suggested and mandatory priority levels (shares, lendable %, queuing). */
export const suggestedLevels: PriorityLevelSpec[] = [
  { name: 'exempt', uid: 'u0', exempt: true, nominalConcurrencyShares: 0, lendablePercent: 0 },
  { name: 'catch-all', uid: 'u1', exempt: false, nominalConcurrencyShares: 5, lendablePercent: 0, queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } },
  { name: 'global-default', uid: 'u2', exempt: false, nominalConcurrencyShares: 20, lendablePercent: 50, queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } },
  { name: 'leader-election', uid: 'u3', exempt: false, nominalConcurrencyShares: 10, lendablePercent: 0, queuing: { queues: 16, handSize: 4, queueLengthLimit: 50 } },
  { name: 'node-high', uid: 'u4', exempt: false, nominalConcurrencyShares: 40, lendablePercent: 25, queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } },
  { name: 'system', uid: 'u5', exempt: false, nominalConcurrencyShares: 30, lendablePercent: 33, queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } },
  { name: 'workload-high', uid: 'u6', exempt: false, nominalConcurrencyShares: 40, lendablePercent: 50, queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } },
  { name: 'workload-low', uid: 'u7', exempt: false, nominalConcurrencyShares: 100, lendablePercent: 90, queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } },
];

test('the suggested configuration at 600 seats gets kube’s nominal, lendable and max seats', () => {
  const seats = computeLevelSeats(600, suggestedLevels);
  // ceil(600 * shares / 245), as kube's documentation tabulates them for the default 600.
  const nominal = Object.fromEntries([...seats].map(([n, s]) => [n, s.nominalCL]));
  assert.deepEqual(nominal, {
    exempt: 0,
    'catch-all': 13,
    'global-default': 49,
    'leader-election': 25,
    'node-high': 98,
    system: 74,
    'workload-high': 98,
    'workload-low': 245,
  });
  const lendable = Object.fromEntries([...seats].map(([n, s]) => [n, s.lendableCL]));
  assert.deepEqual(lendable, { exempt: 0, 'catch-all': 0, 'global-default': 25, 'leader-election': 0, 'node-high': 25, system: 24, 'workload-high': 49, 'workload-low': 221 });
  const wl = seats.get('workload-low');
  assert.equal(wl?.minCL, 24);
  assert.equal(wl?.maxCL, 245 + 600, 'no borrowing limit: the whole server limit');
  assert.equal(initialCurrentCL(wl!), 245 - 110);
  // max(1, min(ceil(15% of nominal), nominal / handSize)), then the estimator's limit of 10.
  assert.equal(seats.get('catch-all')?.maxSeats, 2);
  assert.equal(seats.get('leader-election')?.maxSeats, 4);
  assert.equal(seats.get('global-default')?.maxSeats, 8);
  assert.equal(seats.get('workload-low')?.maxSeats, 37);
  assert.equal(effectiveMaxSeats(seats.get('workload-low')), 10);
  assert.equal(effectiveMaxSeats(seats.get('exempt')), 10);
});

test('borrowingLimitPercent bounds the upper limit', () => {
  const seats = computeLevelSeats(100, [
    { name: 'a', uid: 'a', exempt: false, nominalConcurrencyShares: 1, lendablePercent: 50, borrowingLimitPercent: 20, queuing: { queues: 1, handSize: 1, queueLengthLimit: 5 } },
    { name: 'b', uid: 'b', exempt: false, nominalConcurrencyShares: 1, lendablePercent: 0 },
  ]);
  assert.deepEqual(seats.get('a'), { nominalCL: 50, lendableCL: 25, borrowingCL: 10, minCL: 25, maxCL: 60, maxSeats: 8 });
  assert.equal(seats.get('b')?.maxSeats, 0);
});

test('the fair allocation gives idle levels their floor and the rest to the busy one, within its bounds', () => {
  const r = computeConcurrencyAllocation(100, [
    { lowerBound: 10, upperBound: 150, target: 10 },
    { lowerBound: 20, upperBound: 150, target: 200 },
  ]);
  assert.ok(!('error' in r));
  assert.deepEqual(r.allocs.map((x) => Math.round(x)), [10, 90]);
  const capped = computeConcurrencyAllocation(100, [
    { lowerBound: 10, upperBound: 150, target: 100 },
    { lowerBound: 20, upperBound: 30, target: 1000 },
  ]);
  assert.ok(!('error' in capped));
  assert.deepEqual(capped.allocs.map((x) => Math.round(x)), [70, 30]);
  assert.ok('error' in computeConcurrencyAllocation(10, [{ lowerBound: 20, upperBound: 30, target: 20 }]));
});
