import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { throttle } from './throttle.js';

async function timeThrough(bytes: number, rate: number, chunk: number): Promise<{ ms: number; received: number }> {
  const started = performance.now();
  const source = Readable.from((function* () {
    for (let sent = 0; sent < bytes; sent += chunk) yield Buffer.alloc(Math.min(chunk, bytes - sent), 1);
  })());
  let received = 0;
  for await (const piece of source.pipe(throttle(rate))) received += (piece as Buffer).length;
  return { ms: performance.now() - started, received };
}

describe('throttle', () => {
  it('passes every byte at no more than the rate', async () => {
    // 60 KiB at 100 KiB/s: 0.6 s, whether written in one chunk or many.
    for (const chunk of [60 * 1024, 1000]) {
      const { ms, received } = await timeThrough(60 * 1024, 100 * 1024, chunk);
      assert.equal(received, 60 * 1024);
      assert.ok(ms >= 550 && ms < 1200, `took ${ms} ms`);
    }
  });

  it('adds nothing measurable within the rate', async () => {
    const { ms } = await timeThrough(1024, 1024 * 1024, 1024);
    assert.ok(ms < 100, `took ${ms} ms`);
  });
});
