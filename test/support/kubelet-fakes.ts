/**
 * Test support for the kubelet server: a PodSyncHandler reporting fixed pods, a CRI runtime that
 * only answers ContainerStatus (log paths and states the test controls), and an agent context
 * around an ApiClient, so the server can be started without containerd or pod workers.
 */
import type { KubeObject } from '../../api/meta/types.js';
import { ApiClient } from '../../internal/nodeagent/client/api-client.js';
import type { AgentContext, NodeAgentConfig, PodSyncHandler, StreamingHandlers, SummaryProvider } from '../../internal/nodeagent/interface.js';
import type { CriClient } from '../../internal/nodeagent/runtime/cri-client.js';
import { createLogger } from '../../internal/observability/logging.js';

/** A PodSyncHandler over a fixed list of pods (status included). */
export function fakePods(pods: KubeObject[]): PodSyncHandler {
  return {
    syncPod() {},
    removePod() {},
    runningPods: () => pods,
    findPod: (ns, name) => pods.find((p) => (p.metadata as { namespace?: string }).namespace === ns && (p.metadata as { name?: string }).name === name),
    containerId: () => undefined,
    evictPod: async () => undefined,
  };
}

/** One container the fake runtime knows. */
export interface FakeContainer {
  logPath: string;
  running: boolean;
}

/** A CRI client answering ContainerStatus from containers (by CRI id). */
export function fakeCri(containers: Record<string, FakeContainer>): CriClient {
  return {
    endpoint: 'fake',
    close() {},
    image: {} as CriClient['image'],
    runtime: {
      async ContainerStatus(req: { container_id?: string }) {
        const c = containers[req.container_id ?? ''];
        if (!c) throw Object.assign(new Error(`5 NOT_FOUND: an error occurred when try to find container "${req.container_id}": not found`), { code: 5 });
        return { status: { id: req.container_id, log_path: c.logPath, state: c.running ? 'CONTAINER_RUNNING' : 'CONTAINER_EXITED' } };
      },
      async ListContainers() {
        return { containers: [] };
      },
    } as unknown as CriClient['runtime'],
  };
}

/** A summary provider answering a fixed summary. */
export const fakeSummary: SummaryProvider = { summary: async () => ({ node: { nodeName: 'fake', cpu: { usageNanoCores: 1 } }, pods: [] }) };

/** Streaming handlers that answer which target they were given (the routing is what is tested). */
export const echoStreaming: StreamingHandlers = {
  async serve(kind, _req, res, target) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind, ...target }));
  },
};

/** An agent context for nodeName with config, talking to server (https URL) as token with ca. */
export function agentContext(config: NodeAgentConfig, nodeName: string, server: string, ca: string, token: string, cri?: CriClient): AgentContext & { abort(): void } {
  const ac = new AbortController();
  return {
    config,
    nodeName,
    client: new ApiClient({ server, ca: Buffer.from(ca), token }),
    log: createLogger(0, process.env.CAPSTAN_TEST_LOG !== '1'),
    ...(cri ? { cri } : {}),
    events: { event() {} },
    signal: ac.signal,
    abort: () => ac.abort(),
  };
}
