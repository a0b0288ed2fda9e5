/**
 * The node agent, composed as kubelet starts: the API client (bootstrapping its certificate when
 * asked), the event recorder, the CRI runtime (validated: an unreachable endpoint stops the start
 * with kubelet's message), then probes, pod workers, pod sources, stats, node status, streaming and
 * the kubelet servers. stop() ends the loops and servers but leaves the pods running, as a
 * stopped kubelet leaves its containers to the runtime.
 */
import { hostname } from 'node:os';
import type { Logger } from '../observability/logging.js';
import type { ApiClient } from './client/api-client.js';
import { buildNodeClient, type NodeClient } from './certificate/client.js';
import { createEventRecorder, type NodeEventRecorder } from './events/recorder.js';
import type { AgentContext, NodeAgentConfig, Stoppable } from './interface.js';
import { startNodeStatus } from './node/build.js';
import { createPodWorkers } from './pods/workers.js';
import { createProbeManager } from './probes/manager.js';
import { connectRuntime } from './runtime/connect.js';
import type { CriClient } from './runtime/cri-client.js';
import { startKubeletServers } from './server/build.js';
import { startPodManager } from './sources/build.js';
import { createSummaryProvider } from './stats/summary.js';
import { createStreamingHandlers } from './streaming/handlers.js';
import { loadSimulationRules } from './simulated/rules.js';
import { runSimulatedNodes } from './simulated/run.js';

/** A running node agent. */
export interface RunningNodeAgent extends Stoppable {
  readonly nodeName: string;
  readonly client: ApiClient;
}

/** kubelet's node name: --hostname-override, else the machine's hostname, lowercased. */
export function nodeNameOf(config: NodeAgentConfig): string {
  return (config.hostnameOverride ?? hostname()).trim().toLowerCase();
}

/** Stops parts in order, each once, logging (not throwing) what fails so the rest still stops. */
async function stopAll(parts: ReadonlyArray<readonly [string, () => unknown]>, log: Logger): Promise<void> {
  for (const [name, stop] of parts) {
    try {
      await stop();
    } catch (err) {
      log.warn(`stopping ${name} failed: ${(err as Error).message}`);
    }
  }
}

/**
 * Starts the node agent; rejects (after undoing what started) when a part cannot start or
 * opts.signal aborts the start (the bootstrap may wait long for its certificate).
 */
export async function startNodeAgent(config: NodeAgentConfig, log: Logger, opts: { signal?: AbortSignal } = {}): Promise<RunningNodeAgent> {
  const nodeName = nodeNameOf(config);
  const abort = new AbortController();
  if (opts.signal?.aborted) abort.abort();
  opts.signal?.addEventListener('abort', () => abort.abort(), { once: true });
  // Undo list, newest first: what has started is stopped if a later part fails.
  const started: Array<readonly [string, () => unknown]> = [];
  const undo = async (): Promise<void> => {
    abort.abort();
    await stopAll([...started].reverse(), log);
  };
  let nodeClient: NodeClient;
  try {
    nodeClient = await buildNodeClient(config, nodeName, log, abort.signal);
  } catch (err) {
    throw new Error(`failed to run Kubelet: ${(err as Error).message}`);
  }
  const client = nodeClient.client;
  started.push(['the API client', () => nodeClient.stop()]);
  const events: NodeEventRecorder = createEventRecorder(client, nodeName, { qps: config.eventRecordQPS, burst: config.eventBurst, log });
  started.push(['the event recorder', async () => {
    await Promise.race([events.flush(), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    events.stop();
  }]);
  try {
    if (config.runtime === 'simulated') {
      // Simulated nodes replace every CRI part: they register, heartbeat and move bound pods
      // through their lifecycle themselves, all through this one client.
      const rules = config.simulationRulesFile ? await loadSimulationRules(config.simulationRulesFile) : undefined;
      const sim = runSimulatedNodes(config, () => client, log, config.simulatedNodes, { ...(rules ? { rules } : {}), ...(config.simulatedPodWatch ? { podWatch: config.simulatedPodWatch } : {}) });
      started.push(['the simulated nodes', () => sim.stop()]);
      return finish(sim.nodeNames.join(','));
    }
    let cri: CriClient;
    try {
      cri = await connectRuntime(config.containerRuntimeEndpoint, config.runtimeRequestTimeoutMs, log);
    } catch (err) {
      throw new Error(`failed to run Kubelet: ${(err as Error).message}`);
    }
    started.push(['the CRI client', () => cri.close()]);
    const ctx: AgentContext = { config, nodeName, client, log, cri, events, signal: abort.signal };
    const probes = createProbeManager(ctx);
    started.push(['the probe manager', () => probes.stop()]);
    const workers = createPodWorkers(ctx, { probes });
    started.push(['the pod workers', () => workers.stop()]);
    const podManager = await startPodManager(ctx, workers);
    started.push(['the pod sources', () => podManager.stop()]);
    const summary = createSummaryProvider(ctx, workers);
    const nodeStatus = await startNodeStatus(ctx, { summary, pods: workers });
    started.push(['the node status', () => nodeStatus.stop()]);
    const streaming = createStreamingHandlers(ctx, workers);
    const servers = await startKubeletServers(ctx, { pods: workers, summary, streaming });
    started.push(['the kubelet servers', () => servers.stop()]);
  } catch (err) {
    await undo();
    throw err;
  }
  return finish(nodeName);

  function finish(names: string): RunningNodeAgent {
    log.info('Started kubelet', { node: names });
    let stopping: Promise<void> | undefined;
    return {
      nodeName,
      client,
      stop() {
        // The pod sources first (no new work arrives), then newest first: servers, node status,
        // workers, probes, runtime, events, client. The pods keep running in the runtime.
        const sources = started.findIndex(([name]) => name === 'the pod sources');
        if (sources >= 0) started.push(...started.splice(sources, 1));
        stopping ??= undo();
        return stopping;
      },
    };
  }
}

/**
 * Runs the node agent until SIGTERM or SIGINT, then stops it gracefully; a second signal exits at
 * once. Resolves with the exit code.
 */
export async function runNodeAgent(config: NodeAgentConfig, log: Logger): Promise<number> {
  let onSignal: ((sig: NodeJS.Signals) => void) | undefined;
  const signalled = new Promise<NodeJS.Signals>((resolve) => (onSignal = resolve));
  let received = 0;
  const handler = (sig: NodeJS.Signals): void => {
    received++;
    if (received > 1) {
      log.info(`received ${sig} again, exiting at once`);
      process.exit(1);
    }
    log.info(`received ${sig}, shutting down`);
    onSignal?.(sig);
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  // A signal during the start (the bootstrap may wait for approval) ends it too.
  const startAbort = new AbortController();
  void signalled.then(() => startAbort.abort());
  let agent: RunningNodeAgent;
  try {
    agent = await startNodeAgent(config, log, { signal: startAbort.signal });
  } catch (err) {
    if (startAbort.signal.aborted) return 0;
    throw err;
  }
  await signalled;
  await agent.stop();
  return 0;
}
