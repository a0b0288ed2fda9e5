import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/meta/types.js';
import { createLogger } from '../../observability/logging.js';
import type { EvictionThreshold, SummaryProvider } from '../interface.js';
import { EvictionManager } from './manager.js';
import { rankPods } from './rank.js';

const Mi = 1024 * 1024;

/** A Summary whose node memory and pod working sets the test sets. */
function stats(state: { availableBytes: number; pods: Record<string, number> }): SummaryProvider {
  return {
    async summary() {
      return {
        node: { memory: { availableBytes: state.availableBytes, workingSetBytes: 1024 * Mi - state.availableBytes } },
        pods: Object.entries(state.pods).map(([uid, ws]) => ({ podRef: { uid, name: uid, namespace: 'default' }, containers: [{ name: 'app', memory: { workingSetBytes: ws } }] })),
      };
    },
  };
}

function pod(uid: string, opts: { request?: string; priority?: number; grace?: number } = {}): KubeObject {
  return {
    metadata: { name: uid, namespace: 'default', uid },
    spec: {
      ...(opts.priority !== undefined ? { priority: opts.priority } : {}),
      ...(opts.grace !== undefined ? { terminationGracePeriodSeconds: opts.grace } : {}),
      containers: [{ name: 'app', resources: opts.request ? { requests: { memory: opts.request } } : {} }],
    },
    status: { phase: 'Running' },
  };
}

function harness(thresholds: { hard?: EvictionThreshold[]; soft?: EvictionThreshold[] }, pods: KubeObject[], state: { availableBytes: number; pods: Record<string, number> }) {
  let now = 1_000_000;
  const evicted: { uid: string; message: string; grace: number }[] = [];
  const events: { reason: string; message: string; uid: string | undefined }[] = [];
  const manager = new EvictionManager({
    config: { evictionHard: thresholds.hard ?? [], evictionSoft: thresholds.soft ?? [], evictionPressureTransitionPeriodMs: 300_000, evictionMaxPodGracePeriod: 20 },
    stats: stats(state),
    pods: {
      runningPods: () => pods.filter((p) => !evicted.some((e) => e.uid === p.metadata.uid)),
      async evictPod(uid, message, grace) {
        evicted.push({ uid, message, grace });
      },
    },
    events: { event: (o, _t, reason, message) => events.push({ reason, message, uid: o.metadata.uid }) },
    log: createLogger(0, true),
    now: () => now,
  });
  return { manager, evicted, events, advance: (ms: number) => (now += ms) };
}

describe('eviction manager', () => {
  it('crossing memory.available sets MemoryPressure and evicts the pod most over its request, with kubelet message', async () => {
    const state = { availableBytes: 500 * Mi, pods: { a: 50 * Mi, b: 300 * Mi, c: 200 * Mi } };
    const pods = [pod('a', { request: '10Mi' }), pod('b', { request: '250Mi' }), pod('c', { request: '100Mi' })];
    const h = harness({ hard: [{ signal: 'memory.available', quantity: 100 * Mi }] }, pods, state);
    assert.equal(await h.manager.synchronize(), undefined);
    assert.equal(h.manager.pressure().memoryPressure, false);

    state.availableBytes = 50 * Mi;
    assert.equal(await h.manager.synchronize(), 'c');
    assert.deepEqual(h.manager.pressure(), { memoryPressure: true, diskPressure: false, pidPressure: false });
    assert.equal(h.evicted[0]?.grace, 1);
    assert.equal(
      h.evicted[0]?.message,
      'The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. Container app was using 200Mi, request is 100Mi, has larger consumption of memory. ',
    );
    assert.deepEqual(h.events[0], { reason: 'Evicted', message: h.evicted[0]?.message, uid: 'c' });

    // One pod a pass; the condition stays for the transition period after the signal recovers.
    state.availableBytes = 600 * Mi;
    assert.equal(await h.manager.synchronize(), undefined);
    h.advance(299_000);
    assert.equal(h.manager.pressure().memoryPressure, true);
    h.advance(2_000);
    assert.equal(h.manager.pressure().memoryPressure, false);
  });

  it('soft thresholds wait for their grace period and use the pod grace capped by --eviction-max-pod-grace-period', async () => {
    const state = { availableBytes: 150 * Mi, pods: { a: 100 * Mi } };
    const h = harness({ soft: [{ signal: 'memory.available', quantity: 200 * Mi, gracePeriodMs: 30_000 }] }, [pod('a', { grace: 60 })], state);
    assert.equal(await h.manager.synchronize(), undefined);
    assert.equal(h.manager.pressure().memoryPressure, true, 'the condition is set as soon as the signal is crossed');
    h.advance(20_000);
    assert.equal(await h.manager.synchronize(), undefined);
    h.advance(10_000);
    assert.equal(await h.manager.synchronize(), 'a');
    assert.equal(h.evicted[0]?.grace, 20);
  });

  it('percentages are of the signal capacity', async () => {
    const state = { availableBytes: 90 * Mi, pods: { a: 10 * Mi } };
    const h = harness({ hard: [{ signal: 'memory.available', percentage: 0.1 }] }, [pod('a')], state);
    assert.equal(await h.manager.synchronize(), 'a');
    assert.equal(h.evicted[0]?.message, 'The node was low on resource: memory. Threshold quantity: 107374182, available: 90Mi. Container app was using 10Mi, request is 0, has larger consumption of memory. ');
  });

  it('ranks pods over their requests first, then by priority, then by usage above requests', () => {
    const ranked = rankPods(
      [
        { pod: pod('low-under', { request: '1Gi', priority: -10 }), stats: { containers: [{ name: 'app', memory: { workingSetBytes: 10 * Mi } }] } },
        { pod: pod('high-over', { request: '1Mi', priority: 100 }), stats: { containers: [{ name: 'app', memory: { workingSetBytes: 50 * Mi } }] } },
        { pod: pod('low-over-small', { request: '1Mi', priority: 0 }), stats: { containers: [{ name: 'app', memory: { workingSetBytes: 5 * Mi } }] } },
        { pod: pod('low-over-big', { request: '1Mi', priority: 0 }), stats: { containers: [{ name: 'app', memory: { workingSetBytes: 80 * Mi } }] } },
      ],
      'memory',
    );
    assert.deepEqual(ranked.map((r) => r.pod.metadata.name), ['low-over-big', 'low-over-small', 'high-over', 'low-under']);
  });
});
