/**
 * Test support for node agent parts: an AgentContext with the v1beta1 defaults (overridable), a
 * recording EventRecorder, and a PodSyncHandler that records the pod manager's calls.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { ApiClient } from '../../internal/nodeagent/client/api-client.js';
import type { AgentContext, DesiredPod, EventRecorder, NodeAgentConfig, PodSyncHandler } from '../../internal/nodeagent/interface.js';
import { defaultNodeAgentConfig } from '../../internal/nodeagent/options/defaults.js';
import type { CriClient } from '../../internal/nodeagent/runtime/cri-client.js';
import { createLogger } from '../../internal/observability/logging.js';

/** One recorded event. */
export interface RecordedEvent {
  readonly object: KubeObject;
  readonly type: string;
  readonly reason: string;
  readonly message: string;
}

/** An EventRecorder keeping what it is given. */
export function recordingEvents(): EventRecorder & { readonly events: RecordedEvent[] } {
  const events: RecordedEvent[] = [];
  return { events, event: (object, type, reason, message) => void events.push({ object, type, reason, message }) };
}

/** A context for one part under test; a client that fails every request unless one is given. */
export function testAgentContext(opts: { nodeName?: string; config?: Partial<NodeAgentConfig>; client?: ApiClient; cri?: CriClient; signal?: AbortSignal } = {}): AgentContext & { events: ReturnType<typeof recordingEvents> } {
  const failing = new Proxy({}, { get: () => () => Promise.reject(new Error('no API server in this test')) }) as unknown as ApiClient;
  return {
    config: { ...defaultNodeAgentConfig(), ...opts.config },
    nodeName: opts.nodeName ?? 'node-1',
    client: opts.client ?? failing,
    log: createLogger(0, process.env.CAPSTAN_TEST_LOG !== '1'),
    ...(opts.cri ? { cri: opts.cri } : {}),
    events: recordingEvents(),
    signal: opts.signal ?? new AbortController().signal,
  };
}

/** One call the pod manager made. */
export type HandlerCall = { readonly op: 'sync'; readonly desired: DesiredPod } | { readonly op: 'remove'; readonly uid: string };

/** A PodSyncHandler that records syncPod/removePod calls and reports no running pods. */
export function recordingHandler(): PodSyncHandler & { readonly calls: HandlerCall[]; waitFor(pred: (calls: HandlerCall[]) => boolean, timeoutMs?: number): Promise<void> } {
  const calls: HandlerCall[] = [];
  return {
    calls,
    syncPod: (desired) => void calls.push({ op: 'sync', desired }),
    removePod: (uid) => void calls.push({ op: 'remove', uid }),
    runningPods: () => [],
    findPod: () => undefined,
    containerId: () => undefined,
    evictPod: () => Promise.resolve(),
    async waitFor(pred, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pred(calls)) {
        if (Date.now() > deadline) throw new Error(`timed out; calls: ${JSON.stringify(calls.map((c) => (c.op === 'sync' ? `sync ${c.desired.pod.metadata.name}${c.desired.mirror ? '+mirror' : ''}` : `remove ${c.uid}`)))}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
  };
}
