import assert from 'node:assert/strict';
import { test } from 'node:test';
import { observeWatchCount } from './flow-metrics.js';
import { admitted, newDispatcher, queuingLevel, request, tick } from './test-support.js';

test('the dispatcher exports kube’s apiserver_flowcontrol_* families with their stability, labels and buckets', async () => {
  const { d, registry } = newDispatcher(2, [queuingLevel('l', 1, { queues: 4, handSize: 2, queueLengthLimit: 5 })]);
  const a = admitted(await d.admit(request('l', 'fs', 'a', { initialSeats: 2 })));
  const queued = d.admit(request('l', 'fs', 'b'));
  await tick(2);
  a.finish();
  admitted(await queued).finish();
  observeWatchCount(registry, 'l', 'fs', 3);
  const text = await registry.metrics();
  const families = new Set([...text.matchAll(/^# TYPE (apiserver_flowcontrol_\w+) /gm)].map((m) => m[1]));
  for (const name of [
    'rejected_requests_total',
    'dispatched_requests_total',
    'current_inqueue_requests',
    'current_inqueue_seats',
    'current_executing_requests',
    'current_executing_seats',
    'request_wait_duration_seconds',
    'request_execution_seconds',
    'request_queue_length_after_enqueue',
    'work_estimated_seats',
    'watch_count_samples',
    'nominal_limit_seats',
    'lower_limit_seats',
    'upper_limit_seats',
    'current_limit_seats',
    'demand_seats',
    'demand_seats_high_watermark',
    'demand_seats_average',
    'demand_seats_stdev',
    'demand_seats_smoothed',
    'target_seats',
    'seat_fair_frac',
    'current_r',
    'dispatch_r',
    'latest_s',
    'next_s_bounds',
    'next_discounted_s_bounds',
    'priority_level_request_utilization',
    'priority_level_seat_utilization',
    'read_vs_write_current_requests',
  ]) {
    if (name !== 'rejected_requests_total') assert.ok(families.has(`apiserver_flowcontrol_${name}`), `${name} missing`);
  }
  // Deprecated in 1.30 and 1.31: hidden in 1.33 unless --show-hidden-metrics-for-version.
  assert.ok(!families.has('apiserver_flowcontrol_request_concurrency_limit'));
  assert.ok(!families.has('apiserver_flowcontrol_request_concurrency_in_use'));
  assert.match(text, /# HELP apiserver_flowcontrol_dispatched_requests_total \[BETA\] Number of requests executed by API Priority and Fairness subsystem\n/);
  assert.match(text, /# HELP apiserver_flowcontrol_current_inqueue_seats \[ALPHA\] /);
  assert.match(text, /apiserver_flowcontrol_dispatched_requests_total\{flow_schema="fs",priority_level="l"\} 2\n/);
  assert.match(text, /apiserver_flowcontrol_request_wait_duration_seconds_bucket\{execute="true",flow_schema="fs",priority_level="l",le="0"\} 1\n/);
  assert.match(text, /apiserver_flowcontrol_request_execution_seconds_count\{flow_schema="fs",priority_level="l",type="regular"\} 2\n/);
  assert.match(text, /apiserver_flowcontrol_request_queue_length_after_enqueue_bucket\{flow_schema="fs",priority_level="l",le="0"\} 1\n/);
  assert.match(text, /apiserver_flowcontrol_work_estimated_seats_bucket\{flow_schema="fs",priority_level="l",le="2"\} 2\n/);
  assert.match(text, /apiserver_flowcontrol_watch_count_samples_bucket\{flow_schema="fs",priority_level="l",le="10"\} 1\n/);
  assert.match(text, /apiserver_flowcontrol_nominal_limit_seats\{priority_level="l"\} 2\n/);
  // A timing histogram counts nanoseconds: the level was executing 2 seats of 2 (ratio 1) for about 2 ms.
  const seatsAtOne = Number(/apiserver_flowcontrol_priority_level_seat_utilization_bucket\{phase="executing",priority_level="l",le="1"\} ([\d.e+]+)/.exec(text)?.[1]);
  const seatsAtHalf = Number(/apiserver_flowcontrol_priority_level_seat_utilization_bucket\{phase="executing",priority_level="l",le="0\.75"\} ([\d.e+]+)/.exec(text)?.[1]);
  assert.ok(seatsAtOne - seatsAtHalf >= 1e6, `about 2 ms at ratio 1, got ${seatsAtOne - seatsAtHalf} ns`);
  d.stop();
});
