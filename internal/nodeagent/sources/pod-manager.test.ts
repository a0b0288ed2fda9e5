import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { recordingHandler, testAgentContext } from '../../../test/support/agent-context.js';
import type { ApiClient } from '../client/api-client.js';
import { MergedPodManager } from './pod-manager.js';
import { decodeManifest } from './static-pod.js';

function apiPod(name: string, extra: Partial<KubeObject> = {}, meta: Partial<KubeObject['metadata']> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '1', ...meta },
    spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] },
    status: { phase: 'Pending' },
    ...extra,
  };
}

/** A client that knows no Node (admission uses the machine's initial node) and records patches. */
function fakeClient(patches: { path: string; body: any }[]): ApiClient {
  return {
    get: () => Promise.reject(Object.assign(new Error('not found'), { code: 404 })),
    patch: (path: string, _type: string, body: unknown) => {
      patches.push({ path, body });
      return Promise.resolve({});
    },
    create: () => Promise.reject(new Error('no creates in this test')),
  } as unknown as ApiClient;
}

function summary(calls: ReturnType<typeof recordingHandler>['calls']): string[] {
  return calls.map((c) => (c.op === 'sync' ? `sync ${c.desired.pod.metadata.name}${c.desired.mirror ? ' +mirror' : ''}` : `remove ${c.uid}`));
}

describe('pod manager: merging sources', () => {
  it('syncs new and changed pods, ignores status-only changes, removes gone ones', async () => {
    const ctx = testAgentContext({ client: fakeClient([]) });
    const handler = recordingHandler();
    const pm = new MergedPodManager(ctx, handler);
    pm.update('api', [apiPod('a'), apiPod('b')]);
    await pm.settled();
    assert.deepEqual(summary(handler.calls), ['sync a', 'sync b']);
    const synced = handler.calls[0]!.op === 'sync' ? handler.calls[0]!.desired : undefined;
    assert.equal(synced?.source, 'api');
    assert.equal(synced?.pod.metadata.annotations?.['kubernetes.io/config.source'], 'api');
    assert.match(synced?.pod.metadata.annotations?.['kubernetes.io/config.seen'] ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

    const first = handler.calls[1]!;
    const seen = first.op === 'sync' ? first.desired.pod.metadata.annotations?.['kubernetes.io/config.seen'] : undefined;
    handler.calls.length = 0;
    pm.update('api', [apiPod('a', { status: { phase: 'Running' } }), apiPod('b', { spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox:2' }] } })]);
    pm.update('api', [apiPod('a', { status: { phase: 'Running' } }), apiPod('b', { spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox:2' }] } }, { deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 })]);
    pm.update('api', [apiPod('b', { spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox:2' }] } }, { deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 })]);
    await pm.settled();
    assert.deepEqual(summary(handler.calls), ['sync b', 'sync b', 'remove uid-a']);
    const last = handler.calls[1]!;
    assert.equal(last.op === 'sync' && last.desired.pod.metadata.deletionTimestamp, '2026-01-01T00:00:00Z');
    assert.equal(last.op === 'sync' && last.desired.pod.metadata.annotations?.['kubernetes.io/config.seen'], seen, 'config.seen is kept');
    assert.equal(pm.pods().length, 1);
    await pm.stop();
  });

  it('refuses a duplicate name within a source with a FailedValidation event', async () => {
    const ctx = testAgentContext({ client: fakeClient([]) });
    const handler = recordingHandler();
    const pm = new MergedPodManager(ctx, handler);
    pm.update('api', [apiPod('a'), apiPod('a', {}, { uid: 'other' })]);
    await pm.settled();
    assert.deepEqual(summary(handler.calls), ['sync a']);
    assert.deepEqual(ctx.events.events.map((e) => [e.type, e.reason, e.message]), [['Warning', 'FailedValidation', 'Error validating pod a_ns(other) from api due to duplicate pod name "a", ignoring']]);
    await pm.stop();
  });

  it('keeps mirror pods out of the desired set and hands them with their static pod', async () => {
    const ctx = testAgentContext({ client: fakeClient([]) });
    const handler = recordingHandler();
    const pm = new MergedPodManager(ctx, handler);
    const [staticPod] = decodeManifest('apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec: {containers: [{name: c, image: busybox}]}\n', { kind: 'file', location: '/m/web.yaml', nodeName: 'node-1' }, false);
    pm.update('file', [staticPod!]);
    await pm.settled();
    assert.deepEqual(summary(handler.calls), ['sync web-node-1']);
    const hash = staticPod!.metadata.uid!;
    const mirror = apiPod('web-node-1', {}, { namespace: 'default', uid: 'mirror-1', annotations: { 'kubernetes.io/config.mirror': hash } });
    pm.update('api', [mirror]);
    await pm.settled();
    assert.deepEqual(summary(handler.calls), ['sync web-node-1', 'sync web-node-1 +mirror']);
    const desired = pm.pods();
    assert.equal(desired.length, 1);
    assert.equal(desired[0]!.source, 'file');
    assert.equal(desired[0]!.mirror?.metadata.uid, 'mirror-1');
    // A mirror of an outdated hash is no mirror of this pod.
    pm.update('api', [{ ...mirror, metadata: { ...mirror.metadata, uid: 'mirror-2', annotations: { 'kubernetes.io/config.mirror': 'old' } } }]);
    await pm.settled();
    assert.deepEqual(summary(handler.calls).slice(2), ['sync web-node-1']);
    assert.equal(pm.pods()[0]!.mirror, undefined);
    await pm.stop();
  });

  it('rejects pods past --max-pods: Warning event and status Failed through pods/status, never synced', async () => {
    const patches: { path: string; body: any }[] = [];
    const ctx = testAgentContext({ client: fakeClient(patches), config: { maxPods: 2 } });
    const handler = recordingHandler();
    const pm = new MergedPodManager(ctx, handler);
    const old = (name: string, ts: string) => apiPod(name, {}, { creationTimestamp: ts });
    pm.update('api', [old('c', '2026-01-03T00:00:00Z'), old('a', '2026-01-01T00:00:00Z'), old('b', '2026-01-02T00:00:00Z')]);
    await pm.settled();
    assert.deepEqual(summary(handler.calls), ['sync a', 'sync b'], 'oldest first');
    const message = "Node didn't have enough resource: pods, requested: 1, used: 2, capacity: 2";
    assert.deepEqual(ctx.events.events.map((e) => [e.object.metadata.name, e.type, e.reason, e.message]), [['c', 'Warning', 'OutOfpods', message]]);
    assert.equal(patches.length, 1);
    assert.equal(patches[0]!.path, '/api/v1/namespaces/ns/pods/c/status');
    assert.deepEqual(patches[0]!.body, {
      metadata: { uid: 'uid-c' },
      status: { phase: 'Failed', reason: 'OutOfpods', message: `Pod was rejected: ${message}`, qosClass: 'BestEffort', conditions: null },
    });
    // The rejected pod stays out even when it changes; a finished pod frees its slot.
    pm.update('api', [old('a', '2026-01-01T00:00:00Z'), { ...old('b', '2026-01-02T00:00:00Z'), status: { phase: 'Succeeded' } }, { ...old('c', '2026-01-03T00:00:00Z'), metadata: { ...old('c', '').metadata, labels: { x: 'y' } } }, old('d', '2026-01-04T00:00:00Z')]);
    await pm.settled();
    assert.deepEqual(summary(handler.calls), ['sync a', 'sync b', 'sync d']);
    await pm.stop();
  });
});
