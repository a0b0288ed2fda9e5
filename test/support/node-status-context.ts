/**
 * Test support for the node agent's node-level parts: an AgentContext for one node against a
 * test API server (as the node's own identity, system:node:<name>, from a client certificate),
 * an event recorder that keeps what it was given, and pod handlers with a fixed set of pods.
 */
import { ApiClient } from '../../internal/nodeagent/client/api-client.js';
import type { AgentContext, EventRecorder, NodeAgentConfig, PodSyncHandler } from '../../internal/nodeagent/interface.js';
import { createLogger } from '../../internal/observability/logging.js';
import type { KubeObject } from '../../api/meta/types.js';
import type { CriClient } from '../../internal/nodeagent/runtime/cri-client.js';

/** An event as the test recorder keeps it. */
export interface RecordedEvent {
  readonly object: KubeObject;
  readonly type: string;
  readonly reason: string;
  readonly message: string;
}

/** A recorder keeping every event in order. */
export function recordingEvents(): EventRecorder & { readonly recorded: RecordedEvent[] } {
  const recorded: RecordedEvent[] = [];
  return {
    recorded,
    event(object, type, reason, message) {
      recorded.push({ object, type, reason, message });
    },
  };
}

/** Pod handlers over a fixed list of pods; evictPod records its calls. */
export function fixedPods(pods: KubeObject[] = []): PodSyncHandler & { readonly evicted: { uid: string; message: string; grace: number }[] } {
  const evicted: { uid: string; message: string; grace: number }[] = [];
  return {
    evicted,
    syncPod() {},
    removePod() {},
    runningPods: () => pods,
    findPod: (ns, name) => pods.find((p) => p.metadata.namespace === ns && p.metadata.name === name),
    containerId: () => undefined,
    async evictPod(uid, message, grace) {
      evicted.push({ uid, message, grace });
    },
  };
}

/** An AgentContext for nodeName talking to https://127.0.0.1:port as the given client certificate. */
export function nodeContext(opts: { port: number; ca: string; cert?: { cert: string; key: string }; nodeName: string; config: NodeAgentConfig; cri?: CriClient; events?: EventRecorder; signal?: AbortSignal }): AgentContext & { client: ApiClient } {
  const client = new ApiClient({
    server: `https://127.0.0.1:${opts.port}`,
    ca: Buffer.from(opts.ca),
    tlsServerName: 'localhost',
    ...(opts.cert ? { clientCert: Buffer.from(opts.cert.cert), clientKey: Buffer.from(opts.cert.key) } : {}),
  });
  return {
    config: opts.config,
    nodeName: opts.nodeName,
    client,
    log: createLogger(0, process.env.CAPSTAN_TEST_LOG !== '1'),
    ...(opts.cri ? { cri: opts.cri } : {}),
    events: opts.events ?? recordingEvents(),
    signal: opts.signal ?? new AbortController().signal,
  };
}
