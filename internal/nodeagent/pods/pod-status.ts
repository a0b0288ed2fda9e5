/**
 * The pod's API status as kubelet's generateAPIPodStatus makes it: phase per getPhase, the
 * conditions kubelet owns (PodReadyToStartContainers, Initialized, Ready, ContainersReady) with
 * kubelet's reasons and messages and lastTransitionTime kept while a condition holds, the other
 * conditions (PodScheduled, DisruptionTarget, readiness gates' own) kept, host and pod IPs,
 * startTime, qosClass and the container statuses.
 */
import type { ContainerStatusJson } from './container-status.js';
import { podQOS } from './resources.js';
import { isSidecar, type Pod } from './types.js';

const kubeletConditions = new Set(['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady']);

/** Facts the status is computed from besides the container statuses. */
export interface PodStatusInputs {
  readonly initStatuses: readonly ContainerStatusJson[];
  readonly statuses: readonly ContainerStatusJson[];
  readonly sandboxReady: boolean;
  readonly podIPs: readonly string[];
  readonly hostIPs: readonly string[];
  /** The pod is being (or was) killed: a phase with every container stopped is final. */
  readonly terminal: boolean;
  /** The API's current status (lastTransitionTime, startTime, phase already final). */
  readonly previous: Record<string, any> | undefined;
  readonly nowIso: string;
  /** Set when evicted (phase Failed with this reason and message). */
  readonly finalReason?: { reason: string; message: string };
}

/** kubelet's getPhase. */
export function podPhase(pod: Pod, init: readonly ContainerStatusJson[], main: readonly ContainerStatusJson[], terminal: boolean): string {
  let pendingSidecars = 0;
  let pendingInit = 0;
  let failedInit = 0;
  for (const c of pod.spec.initContainers ?? []) {
    const s = init.find((x) => x.name === c.name);
    if (isSidecar(c)) {
      if (!s) pendingSidecars++;
      else if (s.state.running) {
        if (!s.started) pendingSidecars++;
      } else if (s.state.terminated) pendingSidecars++;
      else if (s.state.waiting && !s.lastState.terminated) pendingSidecars++;
      continue;
    }
    if (!s) pendingInit++;
    else if (s.state.running) pendingInit++;
    else if (s.state.terminated) {
      if (s.state.terminated.exitCode !== 0) failedInit++;
    } else if (s.state.waiting) {
      if (s.lastState.terminated) {
        if (s.lastState.terminated.exitCode !== 0) failedInit++;
      } else pendingInit++;
    } else pendingInit++;
  }
  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of pod.spec.containers) {
    const s = main.find((x) => x.name === c.name);
    if (!s) unknown++;
    else if (s.state.running) running++;
    else if (s.state.terminated) {
      stopped++;
      if (s.state.terminated.exitCode === 0) succeeded++;
    } else if (s.state.waiting) {
      if (s.lastState.terminated) stopped++;
      else waiting++;
    } else unknown++;
  }
  const policy = pod.spec.restartPolicy ?? 'Always';
  if (failedInit > 0 && policy === 'Never') return 'Failed';
  if (pendingInit > 0 || (pendingSidecars > 0 && running + stopped === 0)) return 'Pending';
  if (waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (terminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (policy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (policy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

function condition(type: string, ok: boolean, previous: Record<string, any>[] | undefined, now: string, reason?: string, message?: string): Record<string, unknown> {
  const status = ok ? 'True' : 'False';
  const prev = previous?.find((c) => c.type === type);
  const lastTransitionTime = prev && prev.status === status ? prev.lastTransitionTime : now;
  return { type, status, lastProbeTime: null, lastTransitionTime, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

function names(list: readonly string[]): string {
  return `[${list.join(' ')}]`;
}

/** The pod's status (JSON), to be written to pods/<name>/status. */
export function podStatus(pod: Pod, inp: PodStatusInputs): Record<string, unknown> {
  const prevPhase = inp.previous?.phase as string | undefined;
  let phase = podPhase(pod, inp.initStatuses, inp.statuses, inp.terminal);
  // A pod that reached a final phase never leaves it (kubelet's status manager refuses that).
  if (prevPhase === 'Succeeded' || prevPhase === 'Failed') phase = prevPhase;
  if (inp.finalReason) phase = 'Failed';
  const prevConds = (inp.previous?.conditions ?? []) as Record<string, any>[];
  const now = inp.nowIso;
  // Initialized.
  const incomplete: string[] = [];
  for (const c of pod.spec.initContainers ?? []) {
    const s = inp.initStatuses.find((x) => x.name === c.name);
    const done = isSidecar(c) ? !!s?.started : s?.state.terminated?.exitCode === 0;
    if (!done) incomplete.push(c.name);
  }
  const anyMainStarted = inp.statuses.some((s) => s.state.running || s.state.terminated || s.lastState.terminated);
  const initialized = incomplete.length === 0 || anyMainStarted;
  // ContainersReady and Ready.
  const unknown: string[] = [];
  const unready: string[] = [];
  for (const c of [...(pod.spec.initContainers ?? []).filter(isSidecar), ...pod.spec.containers]) {
    const s = [...inp.initStatuses, ...inp.statuses].find((x) => x.name === c.name);
    if (!s) unknown.push(c.name);
    else if (!s.ready) unready.push(c.name);
  }
  let crReason: string | undefined;
  let crMessage: string | undefined;
  if (phase === 'Succeeded' && unknown.length === 0) {
    crReason = 'PodCompleted';
  } else if (unknown.length + unready.length > 0) {
    crReason = 'ContainersNotReady';
    crMessage = [unknown.length ? `containers with unknown status: ${names(unknown)}` : '', unready.length ? `containers with unready status: ${names(unready)}` : ''].filter((m) => m).join(', ');
  }
  const containersReady = !crReason;
  let readyReason = crReason;
  let readyMessage = crMessage;
  if (containersReady) {
    const missing: string[] = [];
    for (const g of pod.spec.readinessGates ?? []) {
      const c = prevConds.find((x) => x.type === g.conditionType);
      if (!c) missing.push(`corresponding condition of pod readiness gate "${g.conditionType}" does not exist.`);
      else if (c.status !== 'True') missing.push(`the status of pod readiness gate "${g.conditionType}" is not "True", but ${c.status}`);
    }
    if (missing.length) {
      readyReason = 'ReadinessGatesNotReady';
      readyMessage = missing.join(', ');
    }
  }
  const conditions = [
    condition('PodReadyToStartContainers', inp.sandboxReady && phase !== 'Succeeded' && phase !== 'Failed', prevConds, now),
    condition('Initialized', initialized, prevConds, now, initialized ? undefined : 'ContainersNotInitialized', initialized ? undefined : `containers with incomplete status: ${names(incomplete)}`),
    condition('Ready', !readyReason, prevConds, now, readyReason, readyMessage),
    condition('ContainersReady', containersReady, prevConds, now, crReason, crMessage),
    ...prevConds.filter((c) => !kubeletConditions.has(c.type)),
  ];
  // A pod bound by spec.nodeName (or a static pod) was never through a scheduler: kubelet adds it.
  if (!conditions.some((c) => c.type === 'PodScheduled')) conditions.push(condition('PodScheduled', true, prevConds, now));
  const status: Record<string, unknown> = {
    phase,
    conditions,
    ...(inp.finalReason ? { reason: inp.finalReason.reason, message: inp.finalReason.message } : {}),
    hostIP: inp.hostIPs[0] ?? null,
    hostIPs: inp.hostIPs.length ? inp.hostIPs.map((ip) => ({ ip })) : null,
    podIP: inp.podIPs[0] ?? null,
    podIPs: inp.podIPs.length ? inp.podIPs.map((ip) => ({ ip })) : null,
    startTime: inp.previous?.startTime ?? now,
    qosClass: podQOS(pod),
    containerStatuses: inp.statuses,
  };
  if ((pod.spec.initContainers ?? []).length) status.initContainerStatuses = inp.initStatuses;
  return status;
}
