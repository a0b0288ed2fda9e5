/**
 * `--runtime=simulated --nodes=N`: N simulated nodes in one process (runSimulatedNodes), named
 * <--hostname-override or "sim">-0 .. -N-1. Each registers its Node and renews its Lease every
 * leaseDuration/4, the renewals spread evenly over that interval so N nodes make a steady N/10
 * writes a second rather than bursts. Pods reach the nodes through one shared watch of every bound
 * pod (fieldSelector spec.nodeName!=, list then watch, listing again on 410 Gone) dispatched by
 * spec.nodeName, which costs the API server one watch for the whole process; podWatch 'per-node'
 * instead opens one watch per node as that node's identity (fieldSelector spec.nodeName=<node>), as
 * N kubelets would, for Node authorizer setups that refuse the process a cluster-wide watch.
 */
import type { ApiClient, WatchEvent } from '../client/api-client.js';
import { ApiError } from '../client/api-client.js';
import type { Logger } from '../../observability/logging.js';
import type { NodeAgentConfig, Stoppable } from '../interface.js';
import { sleep } from '../node/lease.js';
import { Limiter } from './limiter.js';
import type { SimulationRules } from './rules.js';
import { SimulatedNode, type SimulatedMachine } from './sim-node.js';

/**
 * The client simulated nodes talk through: called with a node's name for that node's requests
 * (its own identity, system:node:<name>, when the caller has one per node) and without one for
 * the shared pod watch (an identity that may watch every pod). One shared client is fine too.
 */
export type SimulatedClientFactory = (nodeName?: string) => ApiClient;

/** Options of a simulation (every field has a default). */
export interface SimulationOptions {
  readonly rules?: SimulationRules;
  readonly machine?: Partial<SimulatedMachine>;
  readonly podWatch?: 'shared' | 'per-node';
  /** Requests in flight at once across all nodes (registrations and pod writes; Lease renewals are spread instead). */
  readonly maxInFlight?: number;
}

/** The running simulation. */
export interface SimulatedNodes extends Stoppable {
  readonly nodeNames: readonly string[];
  /** Resolves once every node has registered (or the simulation stopped). */
  readonly registered: Promise<void>;
  /** Latencies (ms) of every Lease renewal so far, in order. */
  readonly leaseLatenciesMs: number[];
}

/** The simulated machine's defaults: 4 CPUs, 16 GiB of memory, 100 GiB of ephemeral storage. */
export const defaultSimulatedMachine: SimulatedMachine = { cpu: 4, memoryBytes: 16 * 1024 ** 3, ephemeralStorageBytes: 100 * 1024 ** 3 };

/** The names of n simulated nodes: <prefix>-0 .. <prefix>-(n-1). */
export function simulatedNodeNames(config: Pick<NodeAgentConfig, 'hostnameOverride'>, n: number): string[] {
  const prefix = (config.hostnameOverride?.trim() || 'sim').toLowerCase();
  return Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
}

async function watchPods(client: ApiClient, fieldSelector: string, signal: AbortSignal, log: Logger, dispatch: (type: WatchEvent['type'], pod: Record<string, any>) => void): Promise<void> {
  let backoff = 200;
  while (!signal.aborted) {
    try {
      let cont: string | undefined;
      let rv = '';
      do {
        const list = await client.get<{ items: Record<string, any>[]; metadata: { resourceVersion: string; continue?: string } }>('/api/v1/pods', { query: { fieldSelector, limit: '500', ...(cont ? { continue: cont } : {}) }, signal });
        for (const pod of list.items) dispatch('ADDED', pod);
        rv = list.metadata.resourceVersion;
        cont = list.metadata.continue || undefined;
      } while (cont);
      backoff = 200;
      for (;;) {
        let gone = false;
        for await (const ev of client.watch('/api/v1/pods', { fieldSelector, resourceVersion: rv, allowWatchBookmarks: 'true' }, signal)) {
          if (ev.type === 'ERROR') {
            gone = (ev.object as Record<string, any>).code === 410;
            break;
          }
          rv = ev.object.metadata?.resourceVersion ?? rv;
          if (ev.type !== 'BOOKMARK') dispatch(ev.type, ev.object as Record<string, any>);
        }
        if (gone || signal.aborted) break;
      }
    } catch (err) {
      if (signal.aborted) return;
      if (!(err instanceof ApiError && err.code === 410)) log.warn('Simulated nodes: pod watch failed, listing again', { err: (err as Error).message, retry: `${backoff}ms` });
      await sleep(backoff, signal);
      backoff = Math.min(7_000, backoff * 2);
    }
  }
}

/** Starts n simulated nodes; the caller stops them with stop(). */
export function runSimulatedNodes(config: NodeAgentConfig, clientFor: SimulatedClientFactory, log: Logger, n: number, options: SimulationOptions = {}): SimulatedNodes {
  const abort = new AbortController();
  const signal = abort.signal;
  const limiter = new Limiter(options.maxInFlight ?? 32);
  const deps = { config, machine: { ...defaultSimulatedMachine, ...options.machine }, rules: options.rules ?? {}, log, limiter };
  const names = simulatedNodeNames(config, n);
  const nodes = new Map(names.map((name, i) => [name, new SimulatedNode(i, name, clientFor(name), deps)]));
  const leaseLatenciesMs: number[] = [];
  const loops: Promise<void>[] = [];

  const dispatch = (type: WatchEvent['type'], pod: Record<string, any>) => {
    if (type === 'ERROR' || type === 'BOOKMARK') return;
    nodes.get(pod.spec?.nodeName ?? '')?.onPod(type, pod);
  };
  if (options.podWatch === 'per-node') {
    for (const name of names) loops.push(watchPods(clientFor(name), `spec.nodeName=${name}`, signal, log, dispatch));
  } else {
    loops.push(watchPods(clientFor(), 'spec.nodeName!=', signal, log, dispatch));
  }

  const registrations = [...nodes.values()].map(async (node) => {
    if (config.registerNode) await limiter.run(() => node.status.register(signal));
  });
  const registered = Promise.all(registrations).then(() => undefined);

  const renewIntervalMs = (config.nodeLeaseDurationSeconds * 1000) / 4;
  const updateMs = config.nodeStatusUpdateFrequencyMs;
  for (const node of nodes.values()) {
    node.lease.onRenew = (ms) => leaseLatenciesMs.push(ms);
    const offset = (node.index / Math.max(1, n)) * renewIntervalMs;
    loops.push(
      (async () => {
        if (config.registerNode) await registrations[node.index];
        await node.lease.run(signal, offset);
      })(),
    );
    loops.push(
      (async () => {
        if (config.registerNode) await registrations[node.index];
        await sleep((node.index / Math.max(1, n)) * updateMs, signal);
        while (!signal.aborted) {
          await node.status.update().catch((err) => log.error('Unable to update node status', { node: node.name, err: (err as Error).message }));
          await sleep(updateMs, signal);
        }
      })(),
    );
  }
  log.info('Simulated nodes started', { nodes: n, first: names[0], podWatch: options.podWatch ?? 'shared' });

  return {
    nodeNames: names,
    registered,
    leaseLatenciesMs,
    async stop() {
      abort.abort();
      for (const node of nodes.values()) node.stop();
      await Promise.allSettled([...loops, registered]);
    },
  };
}
