import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditEvents, RecordingBackend } from '../../test/support/audit-events.js';
import { UnionBackend } from './union.js';

describe('audit backend union', () => {
  it('gives every event to every backend and stays synchronous when they all are', () => {
    const a = new RecordingBackend('log');
    const b = new RecordingBackend('webhook');
    const u = new UnionBackend([a, b]);
    assert.equal(u.name, 'union[log,webhook]');
    const events = auditEvents(2);
    assert.equal(u.processEvents(events), true);
    assert.deepEqual(a.batches, [events]);
    assert.deepEqual(b.batches, [events]);
  });

  it('answers false when any backend failed, after giving the events to all of them', () => {
    const a = new RecordingBackend('a', () => false);
    const b = new RecordingBackend('b');
    assert.equal(new UnionBackend([a, b]).processEvents(auditEvents(1)), false);
    assert.equal(b.batches.length, 1);
  });

  it('answers with a promise only when some backend did', async () => {
    const sync = new RecordingBackend('sync');
    const ok = new UnionBackend([sync, new RecordingBackend('async', async () => true)]).processEvents(auditEvents(1));
    assert.ok(ok instanceof Promise);
    assert.equal(await ok, true);
    const failing = new UnionBackend([sync, new RecordingBackend('async', async () => false)]).processEvents(auditEvents(1));
    assert.equal(await failing, false);
    const syncFailure = new UnionBackend([new RecordingBackend('s', () => false), new RecordingBackend('async', async () => true)]).processEvents(auditEvents(1));
    assert.equal(await syncFailure, false);
  });

  it('runs and shuts down every backend', async () => {
    const a = new RecordingBackend('a');
    const b = new RecordingBackend('b');
    const u = new UnionBackend([a, b]);
    u.run();
    assert.deepEqual([a.running, b.running], [true, true]);
    await u.shutdown();
    assert.deepEqual([a.shutDown, b.shutDown], [true, true]);
  });
});
