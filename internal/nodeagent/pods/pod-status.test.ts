import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContainerStatusJson } from './container-status.js';
import { podPhase, podStatus } from './pod-status.js';
import type { Pod } from './types.js';

const running = (name: string, ready = true): ContainerStatusJson => ({ name, state: { running: {} }, lastState: {}, ready, restartCount: 0, started: true });
const exited = (name: string, exitCode: number): ContainerStatusJson => ({ name, state: { terminated: { exitCode } }, lastState: {}, ready: false, restartCount: 0 });
const waiting = (name: string, lastExit?: number): ContainerStatusJson => ({ name, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: lastExit === undefined ? {} : { terminated: { exitCode: lastExit } }, ready: false, restartCount: 1 });
const pod = (spec: Partial<Pod['spec']>): Pod => ({ metadata: { name: 'p', namespace: 'ns', uid: 'u' }, spec: { containers: [{ name: 'a' }], ...spec } });

describe("kubelet's getPhase", () => {
  it('Pending while init containers run, Running once containers run', () => {
    const p = pod({ initContainers: [{ name: 'i' }] });
    assert.equal(podPhase(p, [running('i')], [], false), 'Pending');
    assert.equal(podPhase(p, [exited('i', 0)], [running('a')], false), 'Running');
  });
  it('a failed init container fails a Never pod and keeps others Pending', () => {
    assert.equal(podPhase(pod({ restartPolicy: 'Never', initContainers: [{ name: 'i' }] }), [exited('i', 1)], [], false), 'Failed');
    assert.equal(podPhase(pod({ initContainers: [{ name: 'i' }] }), [waiting('i', 1)], [], false), 'Pending');
  });
  it('stopped containers: Running under Always, Succeeded or Failed otherwise', () => {
    assert.equal(podPhase(pod({ restartPolicy: 'Always' }), [], [waiting('a', 1)], false), 'Running');
    assert.equal(podPhase(pod({ restartPolicy: 'Never' }), [], [exited('a', 0)], false), 'Succeeded');
    assert.equal(podPhase(pod({ restartPolicy: 'Never' }), [], [exited('a', 2)], false), 'Failed');
    assert.equal(podPhase(pod({ restartPolicy: 'OnFailure' }), [], [exited('a', 2)], false), 'Running');
    assert.equal(podPhase(pod({ restartPolicy: 'Always' }), [], [exited('a', 137)], true), 'Failed');
  });
  it('a sidecar that is not started keeps the pod Pending', () => {
    const p = pod({ initContainers: [{ name: 's', restartPolicy: 'Always' }] });
    assert.equal(podPhase(p, [{ ...running('s'), started: false }], [], false), 'Pending');
    assert.equal(podPhase(p, [running('s')], [running('a')], false), 'Running');
  });
});

describe('pod status conditions', () => {
  const base = { sandboxReady: true, podIPs: ['10.1.0.5'], hostIPs: ['192.0.2.7'], terminal: false, previous: undefined, nowIso: '2026-01-01T00:00:00Z' };
  it("names unready and uninitialized containers in kubelet's words, and adds PodScheduled", () => {
    const p = pod({ initContainers: [{ name: 'i' }], containers: [{ name: 'a' }, { name: 'b' }] });
    const s = podStatus(p, { ...base, initStatuses: [running('i')], statuses: [] }) as any;
    const byType = Object.fromEntries(s.conditions.map((c: any) => [c.type, c]));
    assert.equal(byType.Initialized.message, 'containers with incomplete status: [i]');
    assert.equal(byType.Initialized.reason, 'ContainersNotInitialized');
    assert.equal(byType.ContainersReady.message, 'containers with unknown status: [a b]');
    assert.equal(byType.Ready.reason, 'ContainersNotReady');
    assert.equal(byType.PodScheduled.status, 'True');
    assert.equal(s.phase, 'Pending');
    const later = podStatus(p, { ...base, initStatuses: [exited('i', 0)], statuses: [running('a'), running('b', false)], previous: s, nowIso: '2026-01-01T00:01:00Z' }) as any;
    const c2 = Object.fromEntries(later.conditions.map((c: any) => [c.type, c]));
    assert.equal(c2.Ready.message, 'containers with unready status: [b]');
    // Unchanged conditions keep their transition time.
    assert.equal(c2.PodReadyToStartContainers.lastTransitionTime, '2026-01-01T00:00:00Z');
    assert.equal(c2.Initialized.lastTransitionTime, '2026-01-01T00:01:00Z');
  });
  it('a final phase stays final, and eviction sets Failed with reason and message', () => {
    const p = pod({ restartPolicy: 'Never' });
    const s = podStatus(p, { ...base, initStatuses: [], statuses: [running('a')], previous: { phase: 'Succeeded' } }) as any;
    assert.equal(s.phase, 'Succeeded');
    const e = podStatus(p, { ...base, initStatuses: [], statuses: [exited('a', 137)], terminal: true, finalReason: { reason: 'Evicted', message: 'low memory' } }) as any;
    assert.deepEqual([e.phase, e.reason, e.message], ['Failed', 'Evicted', 'low memory']);
  });
});
