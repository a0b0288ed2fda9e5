import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { createLogger } from '../../observability/logging.js';
import { ApiError } from '../client/api-client.js';
import { createEventRecorder, type EventClient } from './recorder.js';

interface Call {
  readonly verb: 'create' | 'patch';
  readonly path: string;
  readonly body: Record<string, any>;
  readonly at: number;
}

/** A fake API: stores created Events by path/name, answers patches, optionally 404s one. */
function fakeClient(opts: { notFoundOnce?: boolean } = {}): EventClient & { calls: Call[] } {
  const calls: Call[] = [];
  let rv = 1;
  const stored = new Map<string, Record<string, any>>();
  let notFound = opts.notFoundOnce ?? false;
  return {
    calls,
    async create(path: string, body: unknown) {
      const b = structuredClone(body) as Record<string, any>;
      calls.push({ verb: 'create', path, body: b, at: performance.now() });
      const saved = { ...b, metadata: { ...b.metadata, resourceVersion: String(rv++) } };
      stored.set(`${path}/${b.metadata.name}`, saved);
      return saved as never;
    },
    async patch(path: string, _type: string, body: unknown) {
      calls.push({ verb: 'patch', path, body: structuredClone(body) as Record<string, any>, at: performance.now() });
      if (notFound) {
        notFound = false;
        throw new ApiError(404, 'NotFound', 'events not found');
      }
      const have = stored.get(path);
      if (!have) throw new ApiError(404, 'NotFound', 'events not found');
      const saved = { ...have, ...(body as object), metadata: { ...have.metadata, resourceVersion: String(rv++) } };
      stored.set(path, saved);
      return saved as never;
    },
  };
}

const log = createLogger(0, true);
const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop', uid: 'uid-1', resourceVersion: '7' } };
const node: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'real-uid' } };

describe('node agent EventRecorder', () => {
  it('writes kubelet-sourced Events in the object namespace, the Node\'s in default', async () => {
    const client = fakeClient();
    const rec = createEventRecorder(client, 'n1', { qps: 0, burst: 0, log });
    rec.event(pod, 'Normal', 'Pulling', 'Pulling image "busybox"', 'spec.containers{app}');
    rec.event(node, 'Normal', 'Starting', 'Starting kubelet.');
    await rec.flush();
    assert.equal(client.calls.length, 2);
    const [p, n] = client.calls as [Call, Call];
    assert.equal(p.verb, 'create');
    assert.equal(p.path, '/api/v1/namespaces/shop/events');
    assert.match(p.body.metadata.name, /^web\.[0-9a-f]+$/);
    assert.deepEqual(p.body.involvedObject, { kind: 'Pod', namespace: 'shop', name: 'web', uid: 'uid-1', apiVersion: 'v1', resourceVersion: '7', fieldPath: 'spec.containers{app}' });
    assert.deepEqual(p.body.source, { component: 'kubelet', host: 'n1' });
    assert.equal(p.body.reportingComponent, 'kubelet');
    assert.equal(p.body.reportingInstance, 'n1');
    assert.equal(p.body.count, 1);
    assert.equal(p.body.type, 'Normal');
    assert.equal(p.body.reason, 'Pulling');
    assert.match(p.body.firstTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(n.path, '/api/v1/namespaces/default/events');
    assert.deepEqual(n.body.involvedObject, { kind: 'Node', name: 'n1', uid: 'n1', apiVersion: 'v1' });
  });

  it('patches count and lastTimestamp of the first Event for a repeat; recreates it when it is gone', async () => {
    const client = fakeClient();
    const rec = createEventRecorder(client, 'n1', { qps: 0, burst: 0, log });
    rec.event(pod, 'Warning', 'BackOff', 'Back-off restarting failed container app');
    await rec.flush();
    rec.event(pod, 'Warning', 'BackOff', 'Back-off restarting failed container app');
    rec.event(pod, 'Warning', 'BackOff', 'Back-off restarting failed container app');
    await rec.flush();
    const [first, second, third] = client.calls as [Call, Call, Call];
    assert.equal(first.verb, 'create');
    assert.equal(second.verb, 'patch');
    assert.equal(second.path, `/api/v1/namespaces/shop/events/${first.body.metadata.name}`);
    assert.equal(second.body.count, 2);
    assert.equal(second.body.message, 'Back-off restarting failed container app');
    assert.ok(second.body.lastTimestamp);
    assert.equal(third.body.count, 3);

    const gone = fakeClient({ notFoundOnce: true });
    const rec2 = createEventRecorder(gone, 'n1', { qps: 0, burst: 0, log });
    rec2.event(pod, 'Normal', 'Killing', 'Stopping container app');
    await rec2.flush();
    rec2.event(pod, 'Normal', 'Killing', 'Stopping container app');
    await rec2.flush();
    assert.deepEqual(gone.calls.map((c) => c.verb), ['create', 'patch', 'create']);
    assert.equal(gone.calls[2]?.body.count, 2);
  });

  it('combines more than 10 similar Events within 10 minutes', async () => {
    const client = fakeClient();
    const rec = createEventRecorder(client, 'n1', { qps: 0, burst: 0, log });
    for (let i = 0; i < 12; i++) rec.event(pod, 'Warning', 'Unhealthy', `Liveness probe failed: attempt ${i}`);
    await rec.flush();
    const messages = client.calls.map((c) => c.body.message as string);
    assert.equal(messages.slice(0, 9).filter((m) => m.startsWith('(combined')).length, 0);
    assert.equal(messages[9], '(combined from similar events): Liveness probe failed: attempt 9');
    // The next similar one updates the combined Event.
    assert.equal(client.calls[10]?.verb, 'patch');
    assert.equal(client.calls[10]?.body.count, 2);
  });

  it('rate-limits writes with --event-qps/--event-burst without blocking the caller, and drops spam', async () => {
    const client = fakeClient();
    const rec = createEventRecorder(client, 'n1', { qps: 10, burst: 1, log });
    const t0 = performance.now();
    for (let i = 0; i < 4; i++) rec.event({ ...pod, metadata: { ...pod.metadata, name: `p${i}`, uid: `u${i}` } }, 'Normal', 'Scheduled', 'x');
    assert.ok(performance.now() - t0 < 50, 'event() returns at once');
    await rec.flush();
    const spread = (client.calls[3] as Call).at - (client.calls[0] as Call).at;
    assert.ok(spread >= 250, `3 waits of ~100 ms, got ${spread.toFixed(0)} ms`);

    const spam = fakeClient();
    const rec2 = createEventRecorder(spam, 'n1', { qps: 0, burst: 0, log });
    for (let i = 0; i < 30; i++) rec2.event(pod, 'Normal', `Reason${i}`, 'm');
    await rec2.flush();
    assert.equal(spam.calls.length, 25, "the spam filter's burst of 25 per object");
  });
});
