import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { computeConditions, conditionsChanged } from './conditions.js';
import { RuntimeHealth } from './runtime-health.js';

const healthy = { readyErrors: [], memoryPressure: false, diskPressure: false, pidPressure: false };

describe('node conditions', () => {
  it('sets kubelet reasons and messages, heartbeats every time and transitions only on change', () => {
    const events: string[] = [];
    const first = computeConditions(undefined, healthy, 't1', (r) => events.push(r));
    assert.deepEqual(first.map((c) => [c.type, c.status, c.reason, c.message]), [
      ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
      ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
    ]);
    assert.deepEqual(events, ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID', 'NodeReady']);
    const second = computeConditions(first, { ...healthy, memoryPressure: true, readyErrors: ['container runtime is down'] }, 't2', (r) => events.push(r));
    const mem = second.find((c) => c.type === 'MemoryPressure')!;
    assert.deepEqual([mem.status, mem.reason, mem.message, mem.lastTransitionTime, mem.lastHeartbeatTime], ['True', 'KubeletHasInsufficientMemory', 'kubelet has insufficient memory available', 't2', 't2']);
    const disk = second.find((c) => c.type === 'DiskPressure')!;
    assert.deepEqual([disk.lastTransitionTime, disk.lastHeartbeatTime], ['t1', 't2']);
    const ready = second.find((c) => c.type === 'Ready')!;
    assert.deepEqual([ready.status, ready.reason, ready.message], ['False', 'KubeletNotReady', 'container runtime is down']);
    assert.deepEqual(events.slice(4), ['NodeHasInsufficientMemory', 'NodeNotReady']);
    assert.equal(conditionsChanged(first, computeConditions(first, healthy, 't3')), false);
    assert.equal(conditionsChanged(first, second), true);
  });

  it('aggregates several errors as kubelet does', () => {
    const c = computeConditions(undefined, { ...healthy, readyErrors: ['a', 'b'] }, 't');
    assert.equal(c.find((x) => x.type === 'Ready')?.message, '[a, b]');
  });

  it('reads the runtime health from CRI Status conditions', () => {
    let now = 1000;
    const h = new RuntimeHealth(() => now);
    assert.deepEqual(h.errors(), ['container runtime status check may not have completed yet']);
    h.record([{ type: 'RuntimeReady', status: true }, { type: 'NetworkReady', status: false, reason: 'NetworkPluginNotReady', message: 'Network plugin returns error: cni plugin not initialized' }]);
    assert.deepEqual(h.errors(), ['container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized']);
    h.record([{ type: 'RuntimeReady', status: true }, { type: 'NetworkReady', status: true }]);
    assert.deepEqual(h.errors(), []);
    now += 120_000;
    assert.deepEqual(h.errors(), ['container runtime is down']);
  });
});
