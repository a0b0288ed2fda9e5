import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WorkQueue } from './queue.js';

describe('GC work queue', () => {
  it('processes a key once however often it is added, never twice at once, and retries with backoff', async () => {
    const q = new WorkQueue<{ k: string }>((i) => i.k, 1, 50);
    const seen: string[] = [];
    let running = 0;
    let maxRunning = 0;
    let failuresLeft = 2;
    q.run(4, async (item) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      seen.push(item.k);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      if (item.k === 'flaky' && failuresLeft-- > 0) return 'requeue';
      return 'forget';
    });
    q.add({ k: 'a' });
    q.add({ k: 'a' });
    q.add({ k: 'flaky' });
    for (let i = 0; i < 200 && seen.filter((k) => k === 'flaky').length < 3; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(seen.filter((k) => k === 'a'), ['a']);
    assert.deepEqual(seen.filter((k) => k === 'flaky'), ['flaky', 'flaky', 'flaky']);
    assert.equal(q.requeues({ k: 'flaky' }), 0, 'forgotten once it succeeded');
    assert.ok(maxRunning <= 2);
    q.stop();
  });

  it('an item added while it is processed runs again afterwards', async () => {
    const q = new WorkQueue<string>((i) => i);
    let runs = 0;
    q.run(2, async () => {
      runs++;
      if (runs === 1) q.add('x');
      await new Promise((r) => setTimeout(r, 5));
      return 'forget';
    });
    q.add('x');
    for (let i = 0; i < 200 && runs < 2; i++) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(runs, 2);
    q.stop();
  });
});
