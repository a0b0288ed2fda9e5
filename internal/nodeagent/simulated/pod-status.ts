/**
 * The pod statuses a simulated node writes, shaped as kubelet's: Running (pod IP, host IP, start
 * time, every container running and ready, conditions PodReadyToStartContainers, Initialized,
 * ContainersReady, Ready and PodScheduled True, qosClass), restarted containers (restartCount and
 * lastState), and terminal phases (Succeeded/Failed with terminated containers and kubelet's
 * PodCompleted / ContainersNotReady reasons).
 */
import { computePodQOS } from '../../registry/core/shared/qos.js';

/** kube's RFC 3339 time at second precision. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The container ID a simulated container reports. */
function containerID(pod: Record<string, any>, name: string, restarts: number): string {
  return `simulated://${pod.metadata.uid}-${name}-${restarts}`;
}

function containers(pod: Record<string, any>): Record<string, any>[] {
  return (pod.spec?.containers ?? []) as Record<string, any>[];
}

function condition(type: string, status: 'True' | 'False', at: string, reason?: string, message?: string): Record<string, unknown> {
  return { type, status, lastProbeTime: null, lastTransitionTime: at, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

/** The state of one pod on its simulated node. */
export interface SimulatedPodState {
  readonly podIP: string;
  readonly hostIP: string;
  readonly startedMs: number;
  /** When the current containers started. */
  runningSinceMs: number;
  restartCount: number;
  /** The last exit (for lastState after a restart). */
  lastExit?: { exitCode: number; startedMs: number; finishedMs: number };
}

function terminated(pod: Record<string, any>, name: string, exit: { exitCode: number; startedMs: number; finishedMs: number }, restarts: number) {
  return {
    terminated: { exitCode: exit.exitCode, reason: exit.exitCode === 0 ? 'Completed' : 'Error', startedAt: rfc3339(exit.startedMs), finishedAt: rfc3339(exit.finishedMs), containerID: containerID(pod, name, restarts) },
  };
}

/** The Running status of pod. */
export function runningStatus(pod: Record<string, any>, s: SimulatedPodState): Record<string, unknown> {
  const since = rfc3339(s.runningSinceMs);
  const start = rfc3339(s.startedMs);
  return {
    phase: 'Running',
    conditions: [
      condition('PodReadyToStartContainers', 'True', start),
      condition('Initialized', 'True', start),
      condition('Ready', 'True', since),
      condition('ContainersReady', 'True', since),
      condition('PodScheduled', 'True', start),
    ],
    hostIP: s.hostIP,
    hostIPs: [{ ip: s.hostIP }],
    podIP: s.podIP,
    podIPs: [{ ip: s.podIP }],
    startTime: start,
    qosClass: computePodQOS(pod.spec),
    containerStatuses: containers(pod).map((c) => ({
      name: c.name,
      state: { running: { startedAt: since } },
      lastState: s.lastExit && s.restartCount > 0 ? terminated(pod, c.name, s.lastExit, s.restartCount - 1) : {},
      ready: true,
      restartCount: s.restartCount,
      image: c.image,
      imageID: `${c.image}@simulated`,
      containerID: containerID(pod, c.name, s.restartCount),
      started: true,
    })),
  };
}

/** The terminal status of pod whose containers exited with exitCode (Succeeded for 0, else Failed). */
export function terminalStatus(pod: Record<string, any>, s: SimulatedPodState, exitCode: number, finishedMs: number): Record<string, unknown> {
  const at = rfc3339(finishedMs);
  const start = rfc3339(s.startedMs);
  const phase = exitCode === 0 ? 'Succeeded' : 'Failed';
  const names = containers(pod).map((c) => c.name as string);
  const notReady = phase === 'Succeeded' ? ['PodCompleted', undefined] : ['ContainersNotReady', `containers with unready status: [${names.join(' ')}]`];
  return {
    phase,
    conditions: [
      condition('PodReadyToStartContainers', 'False', at),
      condition('Initialized', 'True', start, phase === 'Succeeded' ? 'PodCompleted' : undefined),
      condition('Ready', 'False', at, notReady[0], notReady[1]),
      condition('ContainersReady', 'False', at, notReady[0], notReady[1]),
      condition('PodScheduled', 'True', start),
    ],
    hostIP: s.hostIP,
    hostIPs: [{ ip: s.hostIP }],
    podIP: s.podIP,
    podIPs: [{ ip: s.podIP }],
    startTime: start,
    qosClass: computePodQOS(pod.spec),
    containerStatuses: containers(pod).map((c) => ({
      name: c.name,
      state: terminated(pod, c.name, { exitCode, startedMs: s.runningSinceMs, finishedMs }, s.restartCount),
      lastState: {},
      ready: false,
      restartCount: s.restartCount,
      image: c.image,
      imageID: `${c.image}@simulated`,
      containerID: containerID(pod, c.name, s.restartCount),
      started: false,
    })),
  };
}
