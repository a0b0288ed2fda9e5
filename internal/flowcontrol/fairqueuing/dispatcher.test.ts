import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AdmitResult } from '../interface.js';
import { Dealer, hashFlowID } from './shuffle-sharding.js';
import { admitted, newDispatcher, queuingLevel, request, tick } from './test-support.js';

const exempt = { name: 'exempt', uid: 'uid-exempt', exempt: true, nominalConcurrencyShares: 0, lendablePercent: 0 };

test('requests beyond the seats queue and are dispatched as seats free up; a full queue rejects', async () => {
  const { d } = newDispatcher(2, [queuingLevel('l', 1, { queues: 1, handSize: 1, queueLengthLimit: 2 })]);
  const a = admitted(await d.admit(request('l', 'fs')));
  const b = admitted(await d.admit(request('l', 'fs')));
  const order: string[] = [];
  const c = d.admit(request('l', 'fs')).then((r) => (order.push('c'), r));
  const e = d.admit(request('l', 'fs')).then((r) => (order.push('e'), r));
  assert.deepEqual(await d.admit(request('l', 'fs')), { admitted: false, reason: 'queue-full' });
  await tick();
  assert.deepEqual(order, []);
  a.finish();
  admitted(await c);
  assert.deepEqual(order, ['c']);
  b.finish();
  admitted(await e).finish();
  d.stop();
});

test('a request waiting past the queue wait limit is rejected with time-out; a cancelled one with cancelled', async () => {
  const { d, registry } = newDispatcher(1, [queuingLevel('l', 1, { queues: 4, handSize: 2, queueLengthLimit: 10 })], { queueWaitLimitMs: 40 });
  const running = admitted(await d.admit(request('l', 'fs')));
  const started = Date.now();
  const timedOut = await d.admit(request('l', 'fs', 'x'));
  assert.deepEqual(timedOut, { admitted: false, reason: 'time-out' });
  assert.ok(Date.now() - started >= 35);
  const ac = new AbortController();
  const pending = d.admit(request('l', 'fs', 'y', {}, ac.signal));
  ac.abort();
  assert.deepEqual(await pending, { admitted: false, reason: 'cancelled' });
  assert.match(d.dump('priority_levels', { includeRequestDetails: false }), /^l,\s+0,\s+false,\s+false,\s+0,\s+1,\s+1,\s+2,\s+1,\s+1\n/m);
  running.finish();
  const text = await registry.metrics();
  assert.match(text, /apiserver_flowcontrol_rejected_requests_total\{flow_schema="fs",priority_level="l",reason="time-out"\} 1/);
  assert.match(text, /apiserver_flowcontrol_rejected_requests_total\{flow_schema="fs",priority_level="l",reason="cancelled"\} 1/);
  assert.match(text, /apiserver_flowcontrol_request_wait_duration_seconds_count\{execute="false",flow_schema="fs",priority_level="l"\} 2/);
  d.stop();
});

/** Two distinguishers whose one-card hands (of 64 queues) differ. */
function twoFlowsInDifferentQueues(): [string, string] {
  const dealer = Dealer.create(64, 1) as Dealer;
  const first = dealer.deal(hashFlowID('fs', 'flooder'))[0];
  for (let i = 0; ; i++) if (dealer.deal(hashFlowID('fs', `quiet-${i}`))[0] !== first) return ['flooder', `quiet-${i}`];
}

test('fairness: a flow flooding its level does not hold back another flow of the level', async () => {
  const [flooder, quiet] = twoFlowsInDifferentQueues();
  const { d } = newDispatcher(2, [queuingLevel('l', 1, { queues: 64, handSize: 1, queueLengthLimit: 200 })]);
  const dispatched: string[] = [];
  const serve = (p: Promise<AdmitResult>, who: string): Promise<void> =>
    p.then(async (r) => {
      dispatched.push(who);
      await tick(1);
      admitted(r).finish();
    });
  const all: Promise<void>[] = [];
  for (let i = 0; i < 60; i++) all.push(serve(d.admit(request('l', 'fs', flooder)), 'f'));
  for (let i = 0; i < 10; i++) all.push(serve(d.admit(request('l', 'fs', quiet)), 'q'));
  await Promise.all(all);
  const lastQuiet = dispatched.lastIndexOf('q');
  // Served in turn with the flooder after it arrived: its 10 are done within about 2 + 2 x 10 dispatches, not after 60.
  assert.ok(lastQuiet <= 24, `the quiet flow's last request was dispatched ${lastQuiet}th: ${dispatched.join('')}`);
  d.stop();
});

test('width: a request takes its seats; one wider than the limit runs only when nothing executes', async () => {
  const { d } = newDispatcher(4, [queuingLevel('l', 1, { queues: 8, handSize: 2, queueLengthLimit: 10 })]);
  const three = admitted(await d.admit(request('l', 'fs', 'a', { initialSeats: 3 })));
  let two: AdmitResult | undefined;
  const pending = d.admit(request('l', 'fs', 'b', { initialSeats: 2 })).then((r) => (two = r));
  await tick();
  assert.equal(two, undefined, '3 + 2 seats exceed the limit of 4');
  three.finish();
  await pending;
  admitted(two!).finish();
  const wide = admitted(await d.admit(request('l', 'fs', 'a', { initialSeats: 9 })));
  let small: AdmitResult | undefined;
  const smallPending = d.admit(request('l', 'fs', 'b')).then((r) => (small = r));
  await tick();
  assert.equal(small, undefined, 'the wide request holds the level');
  wide.finish();
  admitted(await smallPending).finish();
  d.stop();
});

test('final seats stay held for the additional latency after finish()', async () => {
  const { d } = newDispatcher(2, [queuingLevel('l', 1, { queues: 8, handSize: 2, queueLengthLimit: 10 })]);
  const write = admitted(await d.admit(request('l', 'fs', 'a', { initialSeats: 1, finalSeats: 2, additionalLatencyMs: 60 })));
  write.finish();
  const finishedAt = Date.now();
  const next = await d.admit(request('l', 'fs', 'b'));
  assert.ok(Date.now() - finishedAt >= 50, 'dispatched only once the final seats were released');
  admitted(next).finish();
  d.stop();
});

test('Reject levels refuse with concurrency-limit; exempt levels admit everything and count it', async () => {
  const reject = { name: 'r', uid: 'uid-r', exempt: false, nominalConcurrencyShares: 1, lendablePercent: 0 };
  const { d, registry } = newDispatcher(2, [reject, exempt]);
  const a = admitted(await d.admit(request('r', 'fs')));
  const b = admitted(await d.admit(request('r', 'fs')));
  assert.deepEqual(await d.admit(request('r', 'fs')), { admitted: false, reason: 'concurrency-limit' });
  const held = [];
  for (let i = 0; i < 50; i++) held.push(admitted(await d.admit(request('exempt', 'exempt', '', { initialSeats: 3 }))));
  const text = await registry.metrics();
  assert.match(text, /apiserver_flowcontrol_current_executing_requests\{flow_schema="exempt",priority_level="exempt"\} 50/);
  assert.match(text, /apiserver_flowcontrol_current_executing_seats\{flow_schema="exempt",priority_level="exempt"\} 150/);
  assert.match(d.dump('priority_levels', { includeRequestDetails: false }), /^exempt,\s+0,\s+false,\s+false,\s+0,\s+50,\s+50,\s+0,/m);
  for (const h of held) h.finish();
  a.finish();
  b.finish();
  d.stop();
});

test('borrowing: an idle level lends its lendable seats to a busy one', async () => {
  const { d, registry } = newDispatcher(
    20,
    [queuingLevel('idle', 1, { queues: 4, handSize: 1, queueLengthLimit: 100 }, 50), queuingLevel('busy', 1, { queues: 4, handSize: 1, queueLengthLimit: 100 }, 0)],
    // Long enough that a loaded machine checks the share before the first borrowing round.
    { borrowingPeriodMs: 500 },
  );
  const running: { finish(): void }[] = [];
  for (let i = 0; i < 30; i++) void d.admit(request('busy', 'fs', `u${i % 4}`)).then((r) => running.push(admitted(r)));
  await tick();
  assert.equal(running.length, 13, 'its share before borrowing: 20 * 2/3 of the seats left after the idle level’s floor, rounded');
  await tick(1_000);
  assert.equal(running.length, 15, 'nominal 10 plus the idle level’s lendable 5');
  assert.match(await registry.metrics(), /apiserver_flowcontrol_current_limit_seats\{priority_level="busy"\} 15\n/);
  assert.match(await registry.metrics(), /apiserver_flowcontrol_current_limit_seats\{priority_level="idle"\} 5\n/);
  d.stop();
  while (running.length > 0) running.pop()?.finish();
});

test('a level that leaves the configuration drains and then disappears', async () => {
  const { d } = newDispatcher(4, [queuingLevel('old', 1, { queues: 2, handSize: 1, queueLengthLimit: 5 }), exempt]);
  const r = admitted(await d.admit(request('old', 'fs')));
  d.setPriorityLevels([exempt]);
  assert.match(d.dump('priority_levels', { includeRequestDetails: false }), /^old,\s+0,\s+false,\s+true,\s+0,\s+1,/m);
  r.finish();
  await tick();
  assert.doesNotMatch(d.dump('priority_levels', { includeRequestDetails: false }), /^old,/m);
  d.stop();
});

test('dumps: kube’s columns aligned as Go’s tabwriter aligns them', async () => {
  const { d } = newDispatcher(1, [queuingLevel('catch-all', 1, { queues: 2, handSize: 1, queueLengthLimit: 5 })]);
  const r = admitted(await d.admit(request('catch-all', 'catch-all', 'alice', { initialSeats: 1, finalSeats: 1, additionalLatencyMs: 5 })));
  const levels = d.dump('priority_levels', { includeRequestDetails: false });
  assert.equal(
    levels.split('\n')[0],
    'PriorityLevelName, ActiveQueues, IsIdle, IsQuiescing, WaitingRequests, ExecutingRequests, DispatchedRequests, RejectedRequests, TimedoutRequests, CancelledRequests',
  );
  assert.equal(levels.split('\n')[1], 'catch-all,         0,            false,  false,       0,               1,                 1,                  0,                0,                0');
  const queues = d.dump('queues', { includeRequestDetails: false }).split('\n');
  assert.equal(queues[0], 'PriorityLevelName, Index,  PendingRequests, ExecutingRequests, SeatsInUse, NextDispatchR, InitialSeatsSum, MaxSeatsSum, TotalWorkSum');
  assert.equal(queues.length, 4);
  const requests = d.dump('requests', { includeRequestDetails: true }).split('\n');
  assert.match(requests[0] as string, /^PriorityLevelName, FlowSchemaName, QueueIndex, RequestIndexInQueue, FlowDistingsher, ArriveTime, +InitialSeats, FinalSeats, AdditionalLatency, StartTime, +UserName, Verb, +APIPath, +Namespace, Name, +APIVersion, Resource, SubResource$/);
  assert.match(requests[1] as string, /^catch-all, +catch-all, +[01], +-1, +alice, +\d{4}-\d\d-\d\dT[\d:.]+Z, 1, +1, +5ms, +\d{4}-[^,]+Z, alice, +list, +\/api\/v1\/namespaces\/default\/pods, default, +, +v1, +pods, +$/);
  r.finish();
  d.stop();
});

test('a level whose queuing cannot be shuffle-sharded is ignored, as kube ignores a broken configuration', async () => {
  const { d } = newDispatcher(10, [queuingLevel('catch-all', 1, { queues: 4, handSize: 1, queueLengthLimit: 5 }), queuingLevel('broken', 1, { queues: 512, handSize: 8, queueLengthLimit: 5 })]);
  assert.doesNotMatch(d.dump('priority_levels', { includeRequestDetails: false }), /^broken,/m);
  // The broken level's shares do not count: catch-all gets all 10 seats, max(1, min(ceil(15% of 10), 10 / 1)) = 2.
  assert.equal(d.maxSeats('catch-all'), 2);
  assert.equal(d.maxSeats('unknown'), 10);
  d.stop();
});

test('exempt requests borrow: their demand takes seats other levels may lend', async () => {
  // The demand statistics integrate over the clock: held still while the requests arrive, then
  // moved on, every period sees a demand of exactly 8 (with real time, a slow start between the
  // level's creation and the admissions adds a deviation, and the smoothed demand stays above 8).
  let clock = 0;
  const { d, registry } = newDispatcher(20, [exempt, queuingLevel('l', 10, { queues: 4, handSize: 1, queueLengthLimit: 5 }, 50)], { borrowingPeriodMs: 30, now: () => clock });
  const held = [];
  for (let i = 0; i < 8; i++) held.push(admitted(await d.admit(request('exempt', 'exempt'))));
  clock = 1_000;
  await tick(100);
  const text = await registry.metrics();
  // l: nominal 20, may lend 10; exempt: nominal 0, demand 8. Fair share of 20: exempt 8.9, l 11.1.
  assert.match(text, /apiserver_flowcontrol_current_limit_seats\{priority_level="exempt"\} 9\n/);
  assert.match(text, /apiserver_flowcontrol_current_limit_seats\{priority_level="l"\} 11\n/);
  assert.match(text, /apiserver_flowcontrol_demand_seats_high_watermark\{priority_level="exempt"\} 8\n/);
  for (const h of held) h.finish();
  d.stop();
});

test('a changed level keeps its queues and what waits in them; fewer queues go as they empty', async () => {
  const { d } = newDispatcher(1, [queuingLevel('l', 1, { queues: 8, handSize: 2, queueLengthLimit: 5 })]);
  const first = admitted(await d.admit(request('l', 'fs', 'a')));
  const waiting = [d.admit(request('l', 'fs', 'b')), d.admit(request('l', 'fs', 'c'))];
  d.setPriorityLevels([queuingLevel('l', 3, { queues: 2, handSize: 1, queueLengthLimit: 5 })]);
  const queuesNow = d.dump('queues', { includeRequestDetails: false }).trim().split('\n').length - 1;
  assert.ok(queuesNow >= 2 && queuesNow <= 3, `the queues holding requests stay until they empty (${queuesNow})`);
  assert.match(d.dump('priority_levels', { includeRequestDetails: false }), /^l,\s+\d,\s+false,\s+false,\s+2,\s+1,/m);
  first.finish();
  for (const w of waiting) admitted(await w).finish();
  await tick();
  assert.equal(d.dump('queues', { includeRequestDetails: false }).trim().split('\n').length - 1, 2);
  d.stop();
});
