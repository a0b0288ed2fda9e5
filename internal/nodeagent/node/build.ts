/**
 * The node agent's node-level loops, composed: registration and status updates (status-manager.ts),
 * the Lease (lease.ts), the runtime's health (CRI Status every 5 s), the eviction manager (every
 * 10 s, its pressure feeding the node's conditions) and image garbage collection (every 5 minutes,
 * as kubelet's ImageGCPeriod).
 */
import os from 'node:os';
import { EvictionManager } from '../eviction/manager.js';
import type { AgentContext, PodSyncHandler, Stoppable, SummaryProvider } from '../interface.js';
import { defaultGitVersion } from '../../version/info.js';
import { ImageGC } from './image-gc.js';
import { NodeLease } from './lease.js';
import { sleep } from './time.js';
import { filesystemInfo, internalIPs, readMachineInfo } from './machine-info.js';
import { nodeLabelsError } from '../options/node-labels.js';
import { topImages, type NodeImage } from './node-object.js';
import { RuntimeHealth } from './runtime-health.js';
import { NodeStatusManager } from './status-manager.js';

/** kubelet's runtime status check period and image GC period. */
const runtimeCheckPeriodMs = 5_000;
const imageGCPeriodMs = 5 * 60_000;

/** The hostname kubelet labels its node with: --hostname-override or the host's name, lowercased. */
export function nodeHostname(hostnameOverride: string | undefined): string {
  return (hostnameOverride?.trim() || os.hostname()).toLowerCase();
}

/** Registers the Node (when --register-node), keeps its status and Lease current, evicts under pressure. */
export async function startNodeStatus(ctx: AgentContext, deps: { summary: SummaryProvider; pods: PodSyncHandler }): Promise<Stoppable> {
  const labelsError = nodeLabelsError(ctx.config.nodeLabels);
  if (labelsError) throw new Error(labelsError);
  const stop = new AbortController();
  const signal = AbortSignal.any([stop.signal, ctx.signal]);
  const machine = await readMachineInfo();
  const health = new RuntimeHealth();
  const cri = ctx.cri;
  let runtimeVersion = '';
  let images: NodeImage[] = [];
  const eviction = new EvictionManager({ config: ctx.config, stats: deps.summary, pods: deps.pods, events: ctx.events, log: ctx.log });
  const imageGC = cri ? new ImageGC({ cri, config: ctx.config, log: ctx.log, events: ctx.events, nodeName: ctx.nodeName }) : undefined;
  if (imageGC) eviction.setImageGC(imageGC);
  const status = new NodeStatusManager(
    { client: ctx.client, config: ctx.config, nodeName: ctx.nodeName, log: ctx.log, events: ctx.events },
    {
      machine,
      hostname: nodeHostname(ctx.config.hostnameOverride),
      internalIPs: internalIPs(ctx.config.nodeIPs),
      kubeletVersion: defaultGitVersion,
      rootFs: () => filesystemInfo(ctx.config.rootDir),
      async containerRuntimeVersion() {
        const v = await cri?.runtime.Version({}).catch(() => undefined);
        if (v?.runtime_name) runtimeVersion = `${v.runtime_name}://${v.runtime_version ?? ''}`;
        return runtimeVersion;
      },
      async images() {
        const res = await cri?.image.ListImages({}).catch(() => undefined);
        if (res) images = topImages(res.images ?? []);
        return images;
      },
      health: () => ({ readyErrors: health.errors(), ...eviction.pressure() }),
    },
  );
  const lease = new NodeLease(ctx.client, ctx.nodeName, ctx.config.nodeLeaseDurationSeconds, ctx.log, () => status.node?.metadata?.uid);

  async function runtimeLoop(): Promise<void> {
    while (!signal.aborted) {
      if (cri) await health.check(cri);
      await sleep(runtimeCheckPeriodMs, signal);
    }
  }
  async function imageGCLoop(): Promise<void> {
    if (!imageGC) return;
    while (!signal.aborted) {
      await sleep(imageGCPeriodMs, signal);
      if (signal.aborted) return;
      await imageGC.garbageCollect().catch((err) => ctx.log.error('Image garbage collection failed', { err: (err as Error).message }));
    }
  }
  // The first runtime check comes before the first status, so a healthy node registers Ready.
  if (cri) await health.check(cri);
  const loops = [runtimeLoop(), status.run(signal), lease.run(signal), eviction.run(signal), imageGCLoop()];
  return {
    async stop() {
      stop.abort();
      await Promise.allSettled(loops);
    },
  };
}
