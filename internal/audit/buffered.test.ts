import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditEvent, auditEvents, RecordingBackend, recordingObserver, sleep } from '../../test/support/audit-events.js';
import { BufferedBackend } from './buffered.js';
import type { BatchConfig } from './interface.js';

const base: BatchConfig = { bufferSize: 100, maxBatchSize: 3, maxBatchWaitMs: 60_000, throttleEnable: false, throttleQPS: 10, throttleBurst: 15 };

function ids(batches: ReadonlyArray<ReadonlyArray<{ auditID: string }>>): string[][] {
  return batches.map((b) => b.map((e) => e.auditID.slice(3)));
}

async function until(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(5);
  }
}

describe('buffered audit backend (batch mode)', () => {
  it('is named after its delegate, as kube prints it', () => {
    assert.equal(new BufferedBackend(new RecordingBackend('webhook'), base).name, 'buffered<webhook>');
  });

  it('sends a batch as soon as it holds maxBatchSize events, and the rest on shutdown', async () => {
    const delegate = new RecordingBackend();
    const b = new BufferedBackend(delegate, base);
    b.run();
    assert.equal(delegate.running, true);
    for (const ev of auditEvents(7)) assert.equal(b.processEvents([ev]), true);
    // No waiting: the event completing a batch hands it over.
    assert.deepEqual(ids(delegate.batches), [['0', '1', '2'], ['3', '4', '5']]);
    await b.shutdown();
    assert.deepEqual(ids(delegate.batches), [['0', '1', '2'], ['3', '4', '5'], ['6']]);
    assert.equal(delegate.shutDown, true);
  });

  it('sends a partial batch once maxBatchWait has passed, also after an idle spell', async () => {
    const delegate = new RecordingBackend();
    const b = new BufferedBackend(delegate, { ...base, maxBatchSize: 100, maxBatchWaitMs: 80 });
    b.run();
    const start = performance.now();
    b.processEvents(auditEvents(2));
    await sleep(30);
    assert.equal(delegate.batches.length, 0);
    await until(() => delegate.batches.length === 1);
    assert.ok(delegate.times[0]! - start >= 70, `sent after ${delegate.times[0]! - start}ms`);
    assert.deepEqual(ids(delegate.batches), [['0', '1']]);
    await sleep(250);
    const again = performance.now();
    b.processEvents([auditEvent(2)]);
    await until(() => delegate.batches.length === 2);
    // Within one wait of the event (kube's timer restarts every cycle), never later.
    assert.ok(delegate.times[1]! - again <= 80 + 40, `sent after ${delegate.times[1]! - again}ms`);
    await b.shutdown();
    assert.deepEqual(ids(delegate.batches), [['0', '1'], ['2']]);
  });

  it('keeps events taken before run() and sends them when it starts', async () => {
    const delegate = new RecordingBackend();
    const b = new BufferedBackend(delegate, { ...base, maxBatchSize: 2 });
    b.processEvents(auditEvents(5));
    assert.equal(delegate.batches.length, 0);
    b.run();
    assert.deepEqual(ids(delegate.batches), [['0', '1'], ['2', '3']]);
    await b.shutdown();
    assert.deepEqual(ids(delegate.batches), [['0', '1'], ['2', '3'], ['4']]);
  });

  it('drops new events when the buffer is full, still answers true and reports the drops as plugin "buffered"', async () => {
    const delegate = new RecordingBackend();
    const observer = recordingObserver();
    const b = new BufferedBackend(delegate, { ...base, bufferSize: 3 }, observer);
    assert.equal(b.processEvents(auditEvents(2)), true);
    assert.equal(b.processEvents(auditEvents(3, 2)), true);
    assert.deepEqual(observer.errors, [['buffered', 2]]);
    assert.equal(observer.logs.length, 1);
    assert.match(observer.logs[0]!, /^Error in audit plugin 'buffered' affecting 2 audit events: audit buffer queue blocked\nImpacted events:\n/);
    assert.match(observer.logs[0]!, /2025-01-02T03:04:05\.12345Z AUDIT: id="id-3" stage="ResponseComplete" ip="127\.0\.0\.1" method="get" user="alice" groups="\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" user-agent="test" namespace="default" uri="\/api\/v1\/namespaces\/default\/configmaps\/cm-3" response="200"/);
    b.run();
    await b.shutdown();
    assert.deepEqual(delegate.events.map((e) => e.auditID), ['id-0', 'id-1', 'id-2']);
  });

  it('throttles batches with a token bucket of throttleQPS and throttleBurst', async () => {
    const delegate = new RecordingBackend();
    const b = new BufferedBackend(delegate, { ...base, maxBatchSize: 1, throttleEnable: true, throttleQPS: 20, throttleBurst: 2 });
    b.run();
    b.processEvents(auditEvents(5));
    // The burst goes at once; the others one per 50ms.
    assert.equal(delegate.batches.length, 2);
    await until(() => delegate.batches.length === 5);
    const t = delegate.times;
    assert.ok(t[2]! - t[0]! >= 40, `third batch after ${t[2]! - t[0]!}ms`);
    assert.ok(t[4]! - t[0]! >= 140, `fifth batch after ${t[4]! - t[0]!}ms`);
    await b.shutdown();
    assert.deepEqual(ids(delegate.batches), [['0'], ['1'], ['2'], ['3'], ['4']]);
  });

  it('on shutdown sends what is buffered, waits for batches in flight, then shuts the delegate down and refuses events', async () => {
    let finished = 0;
    const delegate = new RecordingBackend('slow', async () => {
      await sleep(50);
      finished++;
      return true;
    });
    const observer = recordingObserver();
    const b = new BufferedBackend(delegate, { ...base, maxBatchSize: 2, asyncDelegate: true }, observer);
    b.run();
    b.processEvents(auditEvents(5));
    // Asynchronous delegation: both full batches are in flight together.
    assert.equal(delegate.batches.length, 2);
    await b.shutdown();
    assert.equal(finished, 3);
    assert.equal(delegate.maxConcurrent, 3);
    assert.deepEqual(ids(delegate.batches), [['0', '1'], ['2', '3'], ['4']]);
    assert.equal(delegate.shutDown, true);
    assert.equal(b.processEvents([auditEvent(9)]), false);
    assert.deepEqual(observer.errors, [['buffered', 1]]);
    assert.match(observer.logs[0]!, /affecting 1 audit events: audit backend shut down/);
  });

  it('gives a synchronous-mode delegate one batch at a time, in order', async () => {
    const delegate = new RecordingBackend('log', () => sleep(20).then(() => true));
    const b = new BufferedBackend(delegate, { ...base, maxBatchSize: 1 });
    b.run();
    b.processEvents(auditEvents(4));
    assert.equal(delegate.batches.length, 1);
    await b.shutdown();
    assert.equal(delegate.maxConcurrent, 1);
    assert.deepEqual(ids(delegate.batches), [['0'], ['1'], ['2'], ['3']]);
  });

  it('goes on after a delegate that throws or rejects, losing only that batch', async () => {
    let n = 0;
    const delegate = new RecordingBackend('flaky', () => {
      n++;
      if (n === 1) throw new Error('boom');
      if (n === 2) return Promise.reject(new Error('bang'));
      return true;
    });
    const observer = recordingObserver();
    const b = new BufferedBackend(delegate, { ...base, maxBatchSize: 1 }, observer);
    b.run();
    b.processEvents(auditEvents(4));
    await b.shutdown();
    assert.deepEqual(ids(delegate.batches), [['0'], ['1'], ['2'], ['3']]);
    assert.deepEqual(
      observer.logs.map((l) => l.replace(/ on a batch.*: /, ': ')),
      ['audit backend flaky failed: boom', 'audit backend flaky failed: bang'],
    );
  });

  it('flushes on shutdown even when never run', async () => {
    const delegate = new RecordingBackend();
    const b = new BufferedBackend(delegate, { ...base, maxBatchSize: 2 });
    b.processEvents(auditEvents(3));
    await b.shutdown();
    assert.deepEqual(ids(delegate.batches), [['0', '1'], ['2']]);
    assert.equal(delegate.shutDown, true);
  });

  it('refuses a buffer or batch size that is not positive', () => {
    assert.throws(() => new BufferedBackend(new RecordingBackend(), { ...base, bufferSize: 0 }), /positive buffer size/);
    assert.throws(() => new BufferedBackend(new RecordingBackend(), { ...base, maxBatchSize: 0 }), /positive buffer size/);
  });
});
