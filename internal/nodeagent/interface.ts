/**
 * The node agent's shared shapes: its resolved configuration (KubeletConfiguration v1beta1 merged
 * with flags), the context every part receives, and the seams between the parts (pod sources ->
 * pod manager -> pod workers; probes; node status and stats; the kubelet server). Each part lives
 * in its own folder under internal/nodeagent/ and is built by one factory that agent.ts calls.
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { Logger } from '../observability/logging.js';
import type { ApiClient } from './client/api-client.js';
import type { CriClient } from './runtime/cri-client.js';

/** A taint as --register-with-taints and KubeletConfiguration.registerWithTaints give it. */
export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

/** An eviction signal threshold: a quantity ("100Mi") or a percentage ("10%") of capacity. */
export interface EvictionThreshold {
  /** memory.available, nodefs.available, nodefs.inodesFree, imagefs.available, imagefs.inodesFree, pid.available. */
  readonly signal: string;
  /** Bytes (or a count) below which the signal is crossed, when given as a quantity. */
  readonly quantity?: number;
  /** Fraction (0..1) of capacity, when given as a percentage. */
  readonly percentage?: number;
  /** Soft thresholds only: how long the signal must stay crossed (ms). */
  readonly gracePeriodMs?: number;
}

/**
 * The node agent's configuration after --config, --config-dir drop-ins and flags were merged (flags
 * win, as kubelet merges them). Names follow KubeletConfiguration v1beta1; durations are in ms,
 * quantities in bytes. Flags that are not KubeletConfiguration fields sit at the end.
 */
export interface NodeAgentConfig {
  // Serving.
  readonly address: string;
  readonly port: number;
  readonly readOnlyPort: number;
  readonly healthzPort: number;
  readonly healthzBindAddress: string;
  readonly tlsCertFile?: string;
  readonly tlsPrivateKeyFile?: string;
  readonly tlsCipherSuites: readonly string[];
  readonly tlsMinVersion?: string;
  readonly rotateCertificates: boolean;
  readonly serverTLSBootstrap: boolean;
  readonly authentication: {
    readonly x509: { readonly clientCAFile?: string };
    readonly webhook: { readonly enabled: boolean; readonly cacheTTLMs: number };
    readonly anonymous: { readonly enabled: boolean };
  };
  readonly authorization: {
    readonly mode: 'AlwaysAllow' | 'Webhook';
    readonly webhook: { readonly cacheAuthorizedTTLMs: number; readonly cacheUnauthorizedTTLMs: number };
  };
  // Pod sources.
  readonly staticPodPath?: string;
  readonly staticPodURL?: string;
  readonly staticPodURLHeader: Readonly<Record<string, readonly string[]>>;
  readonly fileCheckFrequencyMs: number;
  readonly httpCheckFrequencyMs: number;
  readonly syncFrequencyMs: number;
  // Capacity.
  readonly maxPods: number;
  readonly podsPerCore: number;
  // Runtime.
  readonly containerRuntimeEndpoint: string;
  readonly runtimeRequestTimeoutMs: number;
  readonly containerLogMaxFiles: number;
  readonly containerLogMaxSize: number;
  /** podLogsDir: where pods' container logs go (kubelet: /var/log/pods; absent means that). */
  readonly podLogsDir?: string;
  readonly cgroupDriver: 'cgroupfs' | 'systemd';
  readonly cgroupRoot: string;
  readonly serializeImagePulls: boolean;
  readonly registryPullQPS: number;
  readonly registryBurst: number;
  readonly imageGCHighThresholdPercent: number;
  readonly imageGCLowThresholdPercent: number;
  // Node status.
  readonly nodeStatusUpdateFrequencyMs: number;
  readonly nodeStatusReportFrequencyMs: number;
  readonly nodeLeaseDurationSeconds: number;
  readonly registerNode: boolean;
  readonly registerWithTaints: readonly Taint[];
  // Eviction.
  readonly evictionHard: readonly EvictionThreshold[];
  readonly evictionSoft: readonly EvictionThreshold[];
  readonly evictionPressureTransitionPeriodMs: number;
  readonly evictionMaxPodGracePeriod: number;
  // API client.
  readonly kubeAPIQPS: number;
  readonly kubeAPIBurst: number;
  readonly eventRecordQPS: number;
  readonly eventBurst: number;
  // DNS.
  readonly clusterDNS: readonly string[];
  readonly clusterDomain: string;
  readonly resolvConf: string;
  // Flags only (not KubeletConfiguration fields).
  readonly kubeconfig?: string;
  readonly bootstrapKubeconfig?: string;
  /** --cert-dir: where the bootstrap writes kubelet-client-current.pem and the serving pair. */
  readonly certDir: string;
  readonly hostnameOverride?: string;
  readonly nodeIPs: readonly string[];
  readonly nodeLabels: Readonly<Record<string, string>>;
  /** --root-dir: pods' volumes and plugins (/var/lib/kubelet). */
  readonly rootDir: string;
  /** --runtime: 'remote' (CRI) or 'simulated' (--nodes N in one process). */
  readonly runtime: 'remote' | 'simulated';
  readonly simulatedNodes: number;
  /** --simulation-rules: the rule file of simulated pods' lifecycles (internal/nodeagent/simulated/rules.ts). */
  readonly simulationRulesFile?: string;
  /** --simulated-pod-watch: one pod watch for the process ('shared') or one per node as its identity. */
  readonly simulatedPodWatch?: 'shared' | 'per-node';
}

/** Records core/v1 Events about objects (rate-limited by --event-qps/--event-burst). */
export interface EventRecorder {
  /**
   * type Normal or Warning; reason as kubelet's (Pulling, Pulled, Created, Started, Killing, BackOff,
   * Unhealthy, ...). fieldPath names the part of the object (a container: "spec.containers{name}").
   * Never blocks and never throws: the event is queued and written (or dropped) in the background.
   */
  event(object: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string, fieldPath?: string): void;
}

/** What every part of one node's agent receives. */
export interface AgentContext {
  readonly config: NodeAgentConfig;
  readonly nodeName: string;
  readonly client: ApiClient;
  readonly log: Logger;
  /** The CRI runtime (absent for simulated nodes). */
  readonly cri?: CriClient;
  readonly events: EventRecorder;
  /** Aborted when the agent stops. */
  readonly signal: AbortSignal;
}

/** Something that runs until stopped. */
export interface Stoppable {
  stop(): Promise<void>;
}

/** Where a pod came from (kubelet's config sources). */
export type PodSourceName = 'api' | 'file' | 'http';

/** A pod the node must run, as the pod manager hands it to the workers. */
export interface DesiredPod {
  readonly pod: KubeObject;
  readonly source: PodSourceName;
  /** For static pods, the mirror pod in the API server (status is written there). */
  readonly mirror?: KubeObject;
}

/** The pod workers, as the pod manager drives them. */
export interface PodSyncHandler {
  /** The pod (new or changed) should run as its spec says; deletionTimestamp set means terminate. */
  syncPod(desired: DesiredPod): void;
  /** The pod is gone from every source: stop it (with its grace period) and clean up. */
  removePod(uid: string): void;
  /** Every pod the workers know, with their latest computed status (for /pods and eviction). */
  runningPods(): readonly KubeObject[];
  /** The pod namespace/name the workers run (the kubelet server's /exec, /containerLogs, ...). */
  findPod(namespace: string, name: string): KubeObject | undefined;
  /** The CRI id of the pod's container by name (its current instance), if it has one. */
  containerId(podUid: string, containerName: string): string | undefined;
  /**
   * Evicts the pod (the eviction manager): kills it with gracePeriodSeconds and sets its final status
   * (phase Failed, reason Evicted, the message) as kubelet does; resolves once it is stopped.
   */
  evictPod(podUid: string, message: string, gracePeriodSeconds: number): Promise<void>;
}

/** The merged desired pods of every source (kubelet's pod manager), with mirror pods. */
export interface PodManager extends Stoppable {
  /** Every desired pod. */
  pods(): readonly DesiredPod[];
}

/** Exec, attach and port-forward of the kubelet server (kubelet's streaming server), per request. */
export interface StreamingHandlers {
  /**
   * Serves one upgraded (SPDY or WebSocket) or plain request for pod namespace/name's container
   * (attach/exec; '' for portForward) with the request's query (command, stdin, stdout, stderr,
   * tty, port, ...). The kubelet server has authenticated and authorized it already.
   */
  serve(kind: 'exec' | 'attach' | 'portForward', req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, target: { namespace: string; pod: string; uid?: string; container: string }): Promise<void>;
}

/** Probe results the pod workers consume. */
export interface ProbeResults {
  /** Container ready per the readiness probe (true when none). */
  isReady(podUid: string, containerName: string): boolean;
  /** Startup probe succeeded (true when none). */
  isStarted(podUid: string, containerName: string): boolean;
}

/** Runs liveness, readiness and startup probes of running containers. */
export interface ProbeManager extends ProbeResults {
  /** A container (re)started with this CRI id: probe it per its spec from now on. */
  containerStarted(pod: KubeObject, containerName: string, containerId: string, startedAtMs: number): void;
  /** The container stopped (or the pod is going): stop probing it. */
  containerStopped(podUid: string, containerName: string): void;
  removePod(podUid: string): void;
  /** Called when a liveness or startup probe failed past its threshold: the worker restarts the container. */
  onFailure(handler: (podUid: string, containerName: string, containerId: string, message: string) => void): void;
  /** Called when readiness changes (the worker recomputes status). */
  onChange(handler: (podUid: string) => void): void;
  stop(): void;
}

/** Node and pod statistics (kubelet's stats/v1alpha1 Summary), for /stats/summary and eviction. */
export interface SummaryProvider {
  /** The Summary object: {node: {...}, pods: [...]} with kubelet's field names. */
  summary(): Promise<Record<string, unknown>>;
}
