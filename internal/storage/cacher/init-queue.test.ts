import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InitQueue, type InitTicket } from './init-queue.js';

/** n caches on a queue of concurrency c; started lists them in the order they started. */
function caches(n: number, c: number): { queue: InitQueue; tickets: InitTicket[]; started: number[] } {
  const queue = new InitQueue(c);
  const started: number[] = [];
  const tickets = Array.from({ length: n }, (_, i) => queue.enqueue(() => started.push(i)));
  return { queue, tickets, started };
}

const settled = async (p: Promise<void>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

describe('watch cache init queue', () => {
  it('starts caches a few at a time, the next as one finishes its first load', () => {
    const { queue, tickets, started } = caches(4, 2);
    assert.deepEqual(started, [0, 1]);
    assert.equal(queue.waiting, 2);
    tickets[1]?.done();
    assert.deepEqual(started, [0, 1, 2]);
    tickets[1]?.done();
    assert.deepEqual(started, [0, 1, 2], 'done is idempotent');
    tickets[0]?.done();
    tickets[2]?.done();
    assert.deepEqual(started, [0, 1, 2, 3]);
    assert.equal(queue.waiting, 0);
  });

  it('a demanded cache starts at once, past the limit and ahead of the line', () => {
    const { tickets, started } = caches(4, 1);
    tickets[3]?.demand();
    assert.deepEqual(started, [0, 3]);
    tickets[3]?.demand();
    assert.deepEqual(started, [0, 3], 'demand is idempotent');
    tickets[0]?.done();
    assert.deepEqual(started, [0, 3], 'the demanded cache holds a slot until it is done');
    tickets[3]?.done();
    assert.deepEqual(started, [0, 3, 1]);
  });

  it('caches loading yield their next page to a demanded one until it is done', async () => {
    const { tickets } = caches(3, 2);
    assert.equal(await settled((tickets[0] as InitTicket).turn()), true, 'nothing demanded: go on');
    tickets[2]?.demand();
    assert.equal(await settled((tickets[2] as InitTicket).turn()), true, 'the demanded cache never waits');
    const waiting = (tickets[0] as InitTicket).turn();
    const waiting1 = (tickets[1] as InitTicket).turn();
    assert.equal(await settled(waiting), false);
    // Demanded while yielding: it goes on at once.
    tickets[1]?.demand();
    assert.equal(await settled(waiting1), true);
    assert.equal(await settled(waiting), false, 'two demanded caches are loading');
    tickets[2]?.done();
    tickets[1]?.done();
    assert.equal(await settled(waiting), true);
  });

  it('a cache stopped before its turn leaves the line', () => {
    const { queue, tickets, started } = caches(3, 1);
    tickets[1]?.done();
    assert.equal(queue.waiting, 1);
    tickets[0]?.done();
    assert.deepEqual(started, [0, 2]);
  });
});
