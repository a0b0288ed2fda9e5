/**
 * One simulated node: its Node (registered and kept by the same status manager a real node uses,
 * with a machine made of the simulation's figures and a runtime that is always ready), its Lease,
 * and its pods, which it moves Pending -> Running -> Succeeded/Failed by the simulation rules
 * without running anything. Deleted pods get a final status, then are deleted with gracePeriodSeconds
 * 0 and their uid as precondition, as kubelet finishes a deletion.
 */
import type { ApiClient } from '../client/api-client.js';
import { ApiError } from '../client/api-client.js';
import type { Logger } from '../../observability/logging.js';
import type { NodeAgentConfig } from '../interface.js';
import { NodeLease } from '../node/lease.js';
import type { MachineInfo } from '../node/machine-info.js';
import { NodeStatusManager } from '../node/status-manager.js';
import { defaultGitVersion } from '../../version/info.js';
import { PodIPPool, simulatedHostIP, simulatedPodCIDR } from './addresses.js';
import type { Limiter } from './limiter.js';
import { runningStatus, terminalStatus, type SimulatedPodState } from './pod-status.js';
import { behaviourOf, type PodBehaviour, type SimulationRules } from './rules.js';

/** The simulated machine every simulated node reports. */
export interface SimulatedMachine {
  readonly cpu: number;
  readonly memoryBytes: number;
  readonly ephemeralStorageBytes: number;
}

/** What a simulated node shares with the others. */
export interface SimulatedNodeDeps {
  readonly config: NodeAgentConfig;
  readonly machine: SimulatedMachine;
  readonly rules: SimulationRules;
  readonly log: Logger;
  readonly limiter: Limiter;
}

interface TrackedPod {
  pod: Record<string, any>;
  behaviour: PodBehaviour;
  state?: SimulatedPodState;
  timer?: NodeJS.Timeout;
  finished: boolean;
  deleting: boolean;
}

/** One simulated node. */
export class SimulatedNode {
  readonly status: NodeStatusManager;
  readonly lease: NodeLease;
  private readonly pods = new Map<string, TrackedPod>();
  private readonly ipPool: PodIPPool;
  readonly hostIP: string;
  private stopped = false;

  constructor(
    readonly index: number,
    readonly name: string,
    private readonly client: ApiClient,
    private readonly deps: SimulatedNodeDeps,
  ) {
    this.hostIP = simulatedHostIP(index);
    this.ipPool = new PodIPPool(simulatedPodCIDR(index));
    const machine: MachineInfo = {
      cores: deps.machine.cpu,
      memoryBytes: deps.machine.memoryBytes,
      machineID: '',
      systemUUID: '',
      bootID: '',
      kernelVersion: '',
      osImage: 'Capstan simulated node',
      operatingSystem: 'linux',
      architecture: 'amd64',
    };
    const fs = { capacityBytes: deps.machine.ephemeralStorageBytes, availableBytes: deps.machine.ephemeralStorageBytes, usedBytes: 0, inodes: 1_000_000, inodesFree: 1_000_000, inodesUsed: 0 };
    this.status = new NodeStatusManager(
      { client, config: deps.config, nodeName: name, log: deps.log, readBeforeUpdate: false },
      {
        machine,
        hostname: name,
        internalIPs: [this.hostIP],
        kubeletVersion: defaultGitVersion,
        rootFs: async () => fs,
        containerRuntimeVersion: async () => 'simulated://1.0.0',
        images: async () => [],
        health: () => ({ readyErrors: [], memoryPressure: false, diskPressure: false, pidPressure: false }),
      },
    );
    this.lease = new NodeLease(client, name, deps.config.nodeLeaseDurationSeconds, deps.log, () => this.status.node?.metadata?.uid);
  }

  private podPath(pod: Record<string, any>, sub = ''): string {
    return `/api/v1/namespaces/${encodeURIComponent(pod.metadata.namespace)}/pods/${encodeURIComponent(pod.metadata.name)}${sub}`;
  }

  private async writeStatus(pod: Record<string, any>, status: Record<string, unknown>): Promise<void> {
    await this.deps.limiter.run(() => this.client.patch(this.podPath(pod, '/status'), 'strategic', { metadata: { uid: pod.metadata.uid }, status }));
  }

  private schedule(t: TrackedPod, ms: number, fn: () => Promise<void>): void {
    clearTimeout(t.timer);
    t.timer = setTimeout(() => {
      t.timer = undefined;
      if (this.stopped) return;
      fn().catch((err) => {
        if (!(err instanceof ApiError && err.code === 404)) this.deps.log.error('Simulated node: pod update failed', { node: this.name, pod: `${t.pod.metadata.namespace}/${t.pod.metadata.name}`, err: (err as Error).message });
      });
    }, ms);
  }

  /** A watch event for a pod bound to this node. */
  onPod(type: 'ADDED' | 'MODIFIED' | 'DELETED', pod: Record<string, any>): void {
    const uid = pod.metadata?.uid as string;
    const known = this.pods.get(uid);
    if (type === 'DELETED') {
      this.forget(uid);
      return;
    }
    if (known) known.pod = pod;
    const phase = pod.status?.phase;
    if (pod.metadata?.deletionTimestamp) {
      const t = known ?? { pod, behaviour: behaviourOf(this.deps.rules, pod), finished: phase === 'Succeeded' || phase === 'Failed', deleting: false };
      this.pods.set(uid, t);
      if (!t.deleting) {
        t.deleting = true;
        this.schedule(t, 0, () => this.finishDeletion(t));
      }
      return;
    }
    if (known || phase === 'Succeeded' || phase === 'Failed') return;
    const t: TrackedPod = { pod, behaviour: behaviourOf(this.deps.rules, pod), finished: false, deleting: false };
    this.pods.set(uid, t);
    if (phase === 'Running' && pod.status?.podIP) {
      // Running since an earlier run of the simulation: adopt it as it is, without a new address.
      this.ipPool.reserve(pod.status.podIP);
      const started = Date.parse(pod.status.startTime ?? '') || Date.now();
      t.state = { podIP: pod.status.podIP, hostIP: this.hostIP, startedMs: started, runningSinceMs: Date.now(), restartCount: pod.status.containerStatuses?.[0]?.restartCount ?? 0 };
      this.scheduleExit(t);
      return;
    }
    this.schedule(t, t.behaviour.startDelayMs, () => this.start(t));
  }

  private async start(t: TrackedPod): Promise<void> {
    const podIP = this.ipPool.take();
    if (!podIP) {
      this.deps.log.error('Simulated node: no pod address left', { node: this.name });
      return;
    }
    const now = Date.now();
    t.state = { podIP, hostIP: this.hostIP, startedMs: now, runningSinceMs: now, restartCount: 0 };
    await this.writeStatus(t.pod, runningStatus(t.pod, t.state));
    this.scheduleExit(t);
  }

  private scheduleExit(t: TrackedPod): void {
    if (t.behaviour.runDurationMs === undefined) return;
    this.schedule(t, t.behaviour.runDurationMs, () => this.exit(t));
  }

  private async exit(t: TrackedPod): Promise<void> {
    const state = t.state!;
    const now = Date.now();
    const code = t.behaviour.exitCode;
    const policy = t.pod.spec?.restartPolicy ?? 'Always';
    if (policy === 'Never' || (policy === 'OnFailure' && code === 0)) {
      t.finished = true;
      await this.writeStatus(t.pod, terminalStatus(t.pod, state, code, now));
      return;
    }
    state.lastExit = { exitCode: code, startedMs: state.runningSinceMs, finishedMs: now };
    state.restartCount++;
    state.runningSinceMs = now;
    await this.writeStatus(t.pod, runningStatus(t.pod, state));
    this.scheduleExit(t);
  }

  private async finishDeletion(t: TrackedPod): Promise<void> {
    if (t.state && !t.finished) {
      t.finished = true;
      await this.writeStatus(t.pod, terminalStatus(t.pod, t.state, 0, Date.now()));
    }
    await this.deps.limiter.run(() => this.client.delete(this.podPath(t.pod), { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid: t.pod.metadata.uid } }));
  }

  private forget(uid: string): void {
    const t = this.pods.get(uid);
    if (!t) return;
    clearTimeout(t.timer);
    if (t.state) this.ipPool.release(t.state.podIP);
    this.pods.delete(uid);
  }

  /** Stops every timer of the node's pods. */
  stop(): void {
    this.stopped = true;
    for (const t of this.pods.values()) clearTimeout(t.timer);
  }
}
