/**
 * One sync of one pod, start to end (kubelet's pod worker calling SyncPod, SyncTerminatingPod and
 * SyncTerminatedPod): a pod that should run is synced; a deleted, removed or evicted one is killed
 * with its grace period; its status is computed and written when it changed; a deleted API pod is
 * then cleaned up (sandboxes, volumes) and finally deleted from the API server.
 */
import { containerStatus, type ContainerStatusJson } from './container-status.js';
import { killPod, podGraceSeconds, removeSandboxes } from './kill.js';
import { podStatus } from './pod-status.js';
import { readRuntimeView, nsToMs, sandboxIPs, type RuntimeView } from './runtime-view.js';
import { collectGarbage, syncRunningPod } from './sync-pod.js';
import { terminationMessage } from './termination-message.js';
import { asPod, isSidecar, type Container, type Pod } from './types.js';
import type { PodState, WorkerDeps } from './worker-deps.js';

/** Tells the probes which containers stopped, and adopts running ones they do not know yet. */
function trackRunning(deps: WorkerDeps, state: PodState, pod: Pod, view: RuntimeView): void {
  for (const [name, list] of view.containers) {
    const latest = list[0];
    const known = state.running.get(name);
    if (latest?.status.state === 'CONTAINER_RUNNING') {
      if (known !== latest.id) {
        state.running.set(name, latest.id);
        deps.probes.containerStarted(pod, name, latest.id, nsToMs(latest.status.started_at) || Date.now());
      }
    } else if (known !== undefined) {
      state.running.delete(name);
      deps.probes.containerStopped(state.uid, name);
    }
  }
}

async function readMessages(state: PodState, view: RuntimeView): Promise<void> {
  for (const list of view.containers.values()) {
    for (const inst of list.slice(0, 2)) {
      if (inst.status.state !== 'CONTAINER_EXITED' || state.terminationMessages.has(inst.id)) continue;
      state.terminationMessages.set(inst.id, await terminationMessage(inst, state.terminationFiles.get(inst.id)));
    }
  }
}

function statuses(deps: WorkerDeps, state: PodState, list: readonly Container[], view: RuntimeView, defaultWaiting: string, runtimeName: string, terminal: boolean): ContainerStatusJson[] {
  return list.map((c) => {
    const s = containerStatus(state.uid, c, view.containers.get(c.name), terminal ? undefined : state.waiting.get(c.name), defaultWaiting, deps.probes, runtimeName, state.terminationMessages);
    if (terminal && s.state.waiting) {
      // A container that never ran (or is gone) when the pod ended: kubelet's final word on it.
      const terminated = { exitCode: 137, reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated', startedAt: null, finishedAt: null };
      return { ...s, state: { terminated }, ready: false, started: false };
    }
    return s;
  });
}

async function computeStatus(deps: WorkerDeps, state: PodState, pod: Pod, view: RuntimeView, terminal: boolean): Promise<Record<string, unknown>> {
  const runtimeName = await deps.runtimeName();
  const anyMain = pod.spec.containers.some((c) => (view.containers.get(c.name) ?? []).length > 0);
  const mainDefault = (pod.spec.initContainers ?? []).some((c) => !isSidecar(c)) && !anyMain ? 'PodInitializing' : 'ContainerCreating';
  let podIPs = sandboxIPs(view.sandboxStatus);
  const prev = state.apiStatus ?? (pod.status as Record<string, any> | undefined);
  if (podIPs.length === 0 && terminal) podIPs = ((prev?.podIPs ?? []) as Array<{ ip: string }>).map((p) => p.ip);
  return podStatus(pod, {
    initStatuses: statuses(deps, state, pod.spec.initContainers ?? [], view, 'PodInitializing', runtimeName, terminal),
    statuses: statuses(deps, state, pod.spec.containers, view, mainDefault, runtimeName, terminal),
    sandboxReady: view.sandboxes[0]?.state === 'SANDBOX_READY',
    podIPs,
    hostIPs: await deps.hostIPs(),
    terminal,
    previous: prev,
    nowIso: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    ...(state.evicted ? { finalReason: { reason: 'Evicted', message: state.evicted.message } } : {}),
  });
}

/** Runs one sync of state's pod. */
export async function syncPodOnce(deps: WorkerDeps, state: PodState): Promise<void> {
  state.wakeAtMs = undefined;
  const pod = asPod(state.desired.pod);
  const terminating = state.removed || !!pod.metadata.deletionTimestamp || !!state.evicted;
  let view: RuntimeView;
  let terminal = false;
  if (terminating) {
    view = await readRuntimeView(deps.cri, state.uid);
    if (!state.stopped) {
      const grace = state.evicted ? state.evicted.graceSeconds : state.removed && !pod.metadata.deletionTimestamp ? (pod.spec.terminationGracePeriodSeconds ?? 30) : podGraceSeconds(pod);
      await killPod(deps, state, pod, view, grace);
      state.stopped = true;
      view = await readRuntimeView(deps.cri, state.uid);
    }
    terminal = true;
  } else if (state.stopped) {
    view = await readRuntimeView(deps.cri, state.uid);
    terminal = true;
  } else {
    const out = await syncRunningPod(deps, state, pod);
    view = out.view;
    if (out.finished) {
      await killPod(deps, state, pod, view, pod.spec.terminationGracePeriodSeconds ?? 30);
      state.stopped = true;
      view = await readRuntimeView(deps.cri, state.uid);
      terminal = true;
    } else await collectGarbage(deps, state, view);
  }
  state.view = view;
  trackRunning(deps, state, pod, view);
  await readMessages(state, view);
  const status = await computeStatus(deps, state, pod, view, terminal);
  state.status = status;
  const target = state.statusTarget();
  if (target && !state.removed) {
    const updated = await state.writer.write(target, status);
    if (updated) state.apiStatus = updated.status as Record<string, any>;
  }
  if (!terminating) return;
  const apiDeleted = !!pod.metadata.deletionTimestamp && state.desired.source === 'api';
  if (state.removed || apiDeleted) {
    await removeSandboxes(deps, view);
    await deps.volumes.tearDown(state.uid);
    deps.probes.removePod(state.uid);
    deps.puller.forgetPod(state.uid);
    deps.crashBackoff.forget(`${state.uid}_`);
    if (apiDeleted && !state.removed) await state.writer.finalDelete(pod);
    state.finished = true;
  }
  for (const done of state.evicted?.done.splice(0) ?? []) done();
}
