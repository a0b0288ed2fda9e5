/**
 * API Priority and Fairness against a noisy tenant, bounded (test/support/tenant-flood.ts; the
 * full measurement is `make bench`'s apf-flood row): a user whose FlowSchema puts it in a small
 * queuing priority level lists config maps with ten times as many requests in flight as the
 * level has seats; it is queued and gets 429s with Retry-After (counted as kube counts them),
 * while another user is never refused and its p99 latency stays within twice what it is without
 * the flood.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { parsePromText, sumOf } from '../support/prom-text.js';
import { useServer } from '../support/server.js';
import { tokenAuthFileFlag } from '../support/static-tokens.js';
import { floodRound, floodUsers, noisySeats, noisyToken, prepareFlood, type FloodRound, type FloodShape } from '../support/tenant-flood.js';

const adminToken = 'apf-flood-admin';
const shape: FloodShape = { namespace: 'apf-flood', listSize: 100, noisyShares: 2, queueLengthLimit: 10, quietConcurrency: 4, measureMs: 2500, floodWarmupMs: 700 };
/**
 * Below this a p99 is scheduling noise of the shared test machine (other test files run beside
 * this one), not the server's queuing: the bound is twice the larger of the two.
 */
const noiseFloorMs = 20;

describe('priority and fairness: a tenant flooding lists at 10x its share', () => {
  const fx = useServer({}, async () => [await tokenAuthFileFlag([...floodUsers, { token: adminToken, name: 'admin', uid: 'admin', groups: ['system:masters'] }])]);
  let round: FloodRound;
  let seats = 0;
  before(async () => {
    const t = { port: fx.port, ca: fx.ca, adminToken };
    await prepareFlood(t, shape);
    seats = await noisySeats(t);
    round = await floodRound(t, shape, seats);
  });

  it('queues the noisy tenant and refuses its excess with 429 and Retry-After, never the quiet tenant', async () => {
    const detail = JSON.stringify(round);
    assert.ok(seats >= 1 && seats <= 10, `the noisy level has a small share (${seats} seats)`);
    assert.ok(round.noisy.rejected > 0, `the noisy tenant gets 429s: ${detail}`);
    assert.ok(round.noisy.ok > 0, `and is still served its share: ${detail}`);
    assert.match(round.noisy.retryAfter ?? '', /^[1-9][0-9]*$/, 'its 429s carry Retry-After');
    assert.equal(round.quietFailures, 0, `the quiet tenant is never refused: ${detail}`);
    // kube's request metrics count the refusals as the max-in-flight filter's are counted.
    const m = parsePromText((await fx.request('GET', '/metrics', { headers: { authorization: `Bearer ${adminToken}` } })).text);
    assert.ok(sumOf(m, 'apiserver_dropped_requests_total', { request_kind: 'readOnly' }) >= round.noisy.rejected, 'apiserver_dropped_requests_total counts the 429s');
    assert.ok(sumOf(m, 'apiserver_request_terminations_total', { verb: 'LIST', resource: 'configmaps', code: '429' }) >= round.noisy.rejected, 'and apiserver_request_terminations_total');
    const after = await fx.request('GET', `/api/v1/namespaces/${shape.namespace}/configmaps`, { headers: { authorization: `Bearer ${noisyToken}` } });
    assert.equal(after.status, 200, 'once the flood is over the noisy tenant is served again');
  });

  it('keeps the quiet tenant\'s p99 latency within 2x of its p99 without the flood', async () => {
    const within = (r: FloodRound): boolean => r.floodedP99Ms <= 2 * Math.max(r.aloneP99Ms, noiseFloorMs);
    // One more round when the first misses: a burst of other work on the shared machine can land
    // in one round's flooded half; a server that does not protect the quiet tenant misses both.
    let r = round;
    if (!within(r)) r = await floodRound({ port: fx.port, ca: fx.ca, adminToken }, shape, seats);
    assert.ok(within(r), `quiet p99 ${r.floodedP99Ms.toFixed(1)} ms flooded against ${r.aloneP99Ms.toFixed(1)} ms alone: ${JSON.stringify(r)}`);
  });
});
