/**
 * What every pod worker shares: the agent's context, the runtime, the probe manager, the image
 * puller, the volume manager, the crash back-off and the node's facts (runtime name, host IPs,
 * the host's DNS), plus the per-pod state a worker keeps between syncs.
 */
import type { AgentContext, DesiredPod, ProbeManager } from '../interface.js';
import type { CriClient } from '../runtime/cri-client.js';
import type { ImagePuller } from '../images/puller.js';
import type { VolumeManager } from '../volumes/manager.js';
import type { Backoff } from './backoff.js';
import type { ConfigObjects } from './config-objects.js';
import type { Waiting } from './container-status.js';
import type { HostDNS } from './dns.js';
import type { RuntimeView } from './runtime-view.js';
import type { StatusWriter } from './status-writer.js';
import type { KubeObject } from '../../../api/meta/types.js';

/** Shared by every worker. */
export interface WorkerDeps {
  readonly ctx: AgentContext;
  readonly cri: CriClient;
  readonly probes: ProbeManager;
  readonly puller: ImagePuller;
  readonly volumes: VolumeManager;
  readonly objects: ConfigObjects;
  /** kubelet's crash-loop back-off: 10 s doubling to 5 min. */
  readonly crashBackoff: Backoff;
  /** The runtime's name (containerd), for containerID "<name>://<id>". */
  runtimeName(): Promise<string>;
  hostIPs(): Promise<string[]>;
  hostDNS(): Promise<HostDNS>;
}

/** One pod's state between syncs. */
export interface PodState {
  readonly uid: string;
  desired: DesiredPod;
  /** removePod was called: stop, clean up, forget. */
  removed: boolean;
  evicted?: { message: string; graceSeconds: number; done: Array<() => void> };
  /** Why containers wait, from the last sync. */
  waiting: Map<string, Waiting>;
  /** Container ids the probes asked to restart, with the message. */
  killRequests: Map<string, string>;
  /** Container id -> its termination-message file on the host. */
  terminationFiles: Map<string, string>;
  /** Container id -> its termination message, once read. */
  terminationMessages: Map<string, string>;
  /** Container name -> the id last seen running (to tell the probes when it stops). */
  running: Map<string, string>;
  view?: RuntimeView;
  /** The latest computed status. */
  status?: Record<string, unknown>;
  /** The status as the API server has it (from the last write or the pod itself). */
  apiStatus?: Record<string, any>;
  writer: StatusWriter;
  /** Stopped: sandbox stopped after a final phase or a kill. */
  stopped: boolean;
  /** Cleaned up and forgotten. */
  finished: boolean;
  /** A sync to run at this time (back-off expiry). */
  wakeAtMs?: number;
  /** The object status is written to (the mirror pod of a static pod). */
  statusTarget(): KubeObject | undefined;
}
