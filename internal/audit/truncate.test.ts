import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditEvent, RecordingBackend, recordingObserver } from '../../test/support/audit-events.js';
import type { AuditEvent } from './interface.js';
import { eventSize, TruncatingBackend } from './truncate.js';

/** An event at level Request carrying a request object of about n bytes. */
function withObject(i: number, n: number, level: AuditEvent['level'] = 'RequestResponse'): AuditEvent {
  return auditEvent(i, { level, requestObject: { kind: 'ConfigMap', data: { blob: 'x'.repeat(n) } }, responseObject: { kind: 'ConfigMap' } });
}

describe('truncating audit backend', () => {
  it('measures an event as kube encodes it: JSON bytes, a newline, and Go\'s HTML-safe escapes', () => {
    const plain = auditEvent(1);
    assert.equal(eventSize(plain), Buffer.byteLength(JSON.stringify(plain)) + 1);
    // "é" is two UTF-8 bytes; <, > and & are six bytes each in Go's output (\u003c).
    const ev = auditEvent(1, { userAgent: 'é<a&b>' });
    assert.equal(eventSize(ev), eventSize(auditEvent(1, { userAgent: '' })) + 2 + 3 * 6 + 2);
    assert.equal(eventSize(auditEvent(1, { userAgent: '\u2028' })), eventSize(auditEvent(1, { userAgent: '' })) + 6);
  });

  it('passes events within the limits unchanged, in one batch', () => {
    const delegate = new RecordingBackend('log');
    const t = new TruncatingBackend(delegate, { maxEventSize: 100_000, maxBatchSize: 10_000_000 });
    assert.equal(t.name, 'truncate<log>');
    const events = [withObject(0, 10), auditEvent(1)];
    assert.equal(t.processEvents(events), true);
    assert.deepEqual(delegate.batches, [events]);
  });

  it('drops the objects of a too-large event and marks it audit.k8s.io/truncated=true, leaving the original alone', () => {
    const delegate = new RecordingBackend();
    const observer = recordingObserver();
    const t = new TruncatingBackend(delegate, { maxEventSize: 2000, maxBatchSize: 100_000 }, observer);
    const big = { ...withObject(0, 5000), annotations: { 'authorization.k8s.io/decision': 'allow' } };
    assert.equal(t.processEvents([big]), true);
    const sent = delegate.events[0]!;
    assert.equal(sent.requestObject, undefined);
    assert.equal(sent.responseObject, undefined);
    assert.deepEqual(sent.annotations, { 'authorization.k8s.io/decision': 'allow', 'audit.k8s.io/truncated': 'true' });
    assert.equal(sent.auditID, 'id-0');
    assert.ok(big.requestObject && !('audit.k8s.io/truncated' in big.annotations), 'the caller\'s event is unchanged');
    assert.deepEqual(observer.errors, []);
  });

  it('drops an event still too large after truncation, and a too-large Metadata event, reporting them as plugin "truncate"', () => {
    const delegate = new RecordingBackend();
    const observer = recordingObserver();
    const t = new TruncatingBackend(delegate, { maxEventSize: 1000, maxBatchSize: 100_000 }, observer);
    const hugeAnnotations = { ...withObject(0, 10), annotations: { note: 'y'.repeat(2000) } };
    const bigMetadata = auditEvent(1, { annotations: { note: 'z'.repeat(2000) } });
    const fine = auditEvent(2);
    assert.equal(t.processEvents([hugeAnnotations, bigMetadata, fine]), true);
    assert.deepEqual(delegate.events.map((e) => e.auditID), ['id-2']);
    assert.deepEqual(observer.errors, [['truncate', 2]]);
    assert.match(observer.logs[0]!, /^Error in audit plugin 'truncate' affecting 2 audit events: event is too large even after truncating\n/);
    assert.match(observer.logs[0]!, /id="id-0"[^\n]*\n[^\n]*id="id-1"/);
  });

  it('splits events into batches of at most maxBatchSize bytes', () => {
    const delegate = new RecordingBackend();
    const events = [0, 1, 2, 3, 4].map((i) => withObject(i, 300));
    const size = eventSize(events[0]!);
    const t = new TruncatingBackend(delegate, { maxEventSize: size, maxBatchSize: 2 * size + size / 2 });
    assert.equal(t.processEvents(events), true);
    assert.deepEqual(delegate.batches.map((b) => b.map((e) => e.auditID)), [['id-0', 'id-1'], ['id-2', 'id-3'], ['id-4']]);
    for (const b of delegate.batches) assert.ok(b.reduce((n, e) => n + eventSize(e), 0) <= 2 * size + size / 2);
  });

  it('answers false when a delegated batch failed, and waits only for delegates answering with a promise', async () => {
    const failing = new TruncatingBackend(new RecordingBackend('x', () => false), { maxEventSize: 100_000, maxBatchSize: 100_000 });
    assert.equal(failing.processEvents([auditEvent(0)]), false);
    const events = [0, 1].map((i) => withObject(i, 300));
    let n = 0;
    const asyncDelegate = new RecordingBackend('y', async () => ++n === 1);
    const t = new TruncatingBackend(asyncDelegate, { maxEventSize: 100_000, maxBatchSize: eventSize(events[0]!) });
    const r = t.processEvents(events);
    assert.ok(r instanceof Promise);
    assert.equal(await r, false);
    assert.equal(asyncDelegate.batches.length, 2);
  });

  it('runs and shuts down its delegate', async () => {
    const delegate = new RecordingBackend();
    const t = new TruncatingBackend(delegate, { maxEventSize: 1, maxBatchSize: 1 });
    t.run();
    await t.shutdown();
    assert.deepEqual([delegate.running, delegate.shutDown], [true, true]);
  });
});
