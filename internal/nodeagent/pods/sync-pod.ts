/**
 * One sync of a running pod (kubelet's SyncPod with computePodActions): volumes, the sandbox (a
 * new one, with attempt+1, when the last one is gone or not ready, killing what ran in it), init
 * containers one at a time in order (sidecars started in order, the next init container waiting
 * until a sidecar started), then the main containers; exited containers restart per restartPolicy
 * under the crash back-off (CrashLoopBackOff), containers the probes failed are killed and started
 * again. A pod whose containers all finished is stopped.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isGrpcCode } from '../runtime/cri-client.js';
import { grpcErrorText } from '../runtime/grpc-error.js';
import { VolumeSetupError } from '../volumes/manager.js';
import { goDuration } from './backoff.js';
import { etcHostsContent } from './container-config.js';
import { effectivePolicy } from './dns.js';
import { containerHash, containerHashAnnotation } from './labels.js';
import { killContainer, killPod } from './kill.js';
import { nsToMs, readRuntimeView, sandboxIPs, type ContainerInstance, type RuntimeView } from './runtime-view.js';
import { podHostname, sandboxConfig } from './sandbox-config.js';
import { startContainer, type StartInputs } from './start-container.js';
import { formatPod, isSidecar, type Container, type Pod } from './types.js';
import type { PodState, WorkerDeps } from './worker-deps.js';
import { containerFieldPath } from '../events/field-path.js';

/** What the sync decided about the pod as a whole. */
export interface SyncOutcome {
  readonly view: RuntimeView;
  /** Every container finished and none restarts (or init failed under Never): the pod is done. */
  readonly finished: boolean;
}

/** When a sync that left a container waiting on an error runs again. */
export const errorRequeueMs = 5000;

function wakeAt(state: PodState, ms: number): void {
  state.wakeAtMs = state.wakeAtMs === undefined ? ms : Math.min(state.wakeAtMs, ms);
}

function crashKey(pod: Pod, c: Container): string {
  return `${pod.metadata.uid}_${pod.metadata.name}_${pod.metadata.namespace}_${c.name}_${containerHash(c)}`;
}

/**
 * Restarts c (whose newest instance exited) unless its back-off holds; kubelet's doBackOff. Returns
 * whether it was started.
 */
async function restart(deps: WorkerDeps, state: PodState, pod: Pod, c: Container, latest: ContainerInstance, inp: StartInputs): Promise<boolean> {
  const key = crashKey(pod, c);
  const finishedMs = nsToMs(latest.status.finished_at) || Date.now();
  if (deps.crashBackoff.isInBackOffSince(key, finishedMs)) {
    deps.ctx.events.event(pod, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${formatPod(pod)}`, containerFieldPath(pod, c.name));
    state.waiting.set(c.name, { reason: 'CrashLoopBackOff', message: `back-off ${goDuration(deps.crashBackoff.get(key))} restarting failed container=${c.name} pod=${formatPod(pod)}` });
    wakeAt(state, (deps.crashBackoff.until(key, finishedMs) ?? Date.now()) + 50);
    return false;
  }
  deps.crashBackoff.next(key, finishedMs);
  return startOrWait(deps, state, pod, c, latest.restartCount + 1, inp);
}

async function startOrWait(deps: WorkerDeps, state: PodState, pod: Pod, c: Container, restartCount: number, inp: StartInputs): Promise<boolean> {
  const ok = await startContainer(deps, state, pod, c, restartCount, inp);
  if (!ok) {
    // Tried again after errorRequeueMs (kubelet requeues a failed sync after 10-15 s) or when the
    // image back-off ends, whichever is first.
    const until = deps.puller.backoffUntil(pod.metadata.uid ?? '', c.image ?? '');
    wakeAt(state, Math.min(Date.now() + errorRequeueMs, until !== undefined && until > Date.now() ? until + 50 : Infinity));
  }
  return ok;
}

async function ensureSandbox(deps: WorkerDeps, state: PodState, pod: Pod, view: RuntimeView): Promise<{ id: string; attempt: number; view: RuntimeView } | undefined> {
  const latest = view.sandboxes[0];
  if (latest && latest.state === 'SANDBOX_READY') return { id: latest.id ?? '', attempt: latest.metadata?.attempt ?? 0, view };
  const attempt = latest ? (latest.metadata?.attempt ?? 0) + 1 : 0;
  if (latest) {
    deps.ctx.events.event(pod, 'Normal', 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.');
    await killPod(deps, state, pod, view, pod.spec.terminationGracePeriodSeconds ?? 30);
  }
  const { policy, missingClusterDNS } = effectivePolicy(pod, deps.ctx.config.clusterDNS);
  if (missingClusterDNS) {
    deps.ctx.events.event(pod, 'Warning', 'MissingClusterDNS', `pod: "${formatPod(pod)}". kubelet does not have ClusterDNS IP configured and cannot create Pod using "${pod.spec.dnsPolicy ?? 'ClusterFirst'}" policy. Falling back to "${policy}" policy.`);
  }
  const config = sandboxConfig(deps.ctx.config, pod, attempt, await deps.hostDNS());
  await mkdir(config.log_directory ?? '', { recursive: true });
  try {
    const res = await deps.cri.runtime.RunPodSandbox({ config });
    return { id: res.pod_sandbox_id ?? '', attempt, view: await readRuntimeView(deps.cri, state.uid) };
  } catch (err) {
    deps.ctx.events.event(pod, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: ${grpcErrorText(err)}`);
    for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) state.waiting.set(c.name, { reason: 'ContainerCreating' });
    wakeAt(state, Date.now() + errorRequeueMs);
    return undefined;
  }
}

/** The current sandbox's newest instance of c, if it has one. */
function current(view: RuntimeView, sandboxId: string, name: string): ContainerInstance | undefined {
  const latest = view.containers.get(name)?.[0];
  return latest && latest.sandboxId === sandboxId ? latest : undefined;
}

function nextRestartCount(view: RuntimeView, name: string): number {
  const latest = view.containers.get(name)?.[0];
  return latest ? latest.restartCount + 1 : 0;
}

/** Syncs a pod that should run; resolves with the runtime's view afterwards. */
export async function syncRunningPod(deps: WorkerDeps, state: PodState, pod: Pod): Promise<SyncOutcome> {
  let view = await readRuntimeView(deps.cri, state.uid);
  const policy = pod.spec.restartPolicy ?? 'Always';
  const latestSandbox = view.sandboxes[0];
  const anyRan = [...view.containers.values()].some((l) => l.length > 0);
  // A dead sandbox of a pod that never restarts and already ran containers is not recreated.
  if (latestSandbox && latestSandbox.state !== 'SANDBOX_READY' && policy === 'Never' && anyRan) return { view, finished: true };
  let volumes: Map<string, string>;
  const hostIPs = await deps.hostIPs();
  try {
    volumes = await deps.volumes.setUp(pod, { podIPs: sandboxIPs(view.sandboxStatus), hostIPs });
  } catch (err) {
    if (!(err instanceof VolumeSetupError)) throw err;
    deps.ctx.events.event(pod, 'Warning', 'FailedMount', err.message);
    for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) if (!current(view, latestSandbox?.id ?? '', c.name)) state.waiting.set(c.name, { reason: 'ContainerCreating' });
    wakeAt(state, Date.now() + errorRequeueMs);
    return { view, finished: false };
  }
  const sandbox = await ensureSandbox(deps, state, pod, view);
  if (!sandbox) return { view, finished: false };
  view = sandbox.view;
  const podIPs = sandboxIPs(view.sandboxStatus);
  let etcHosts: string | undefined;
  if (!pod.spec.hostNetwork) {
    etcHosts = join(deps.volumes.podDir(state.uid), 'etc-hosts');
    await mkdir(deps.volumes.podDir(state.uid), { recursive: true });
    // Written once, as kubelet's ensureHostsFile: the file is bind-mounted into running containers,
    // and rewriting it (truncate, then write) let a reader in a container find it empty.
    await writeFile(etcHosts, etcHostsContent(pod, podIPs, deps.ctx.config.clusterDomain, podHostname(pod)), { flag: 'wx' }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
  }
  const inp: StartInputs = { sandboxId: sandbox.id, sandboxConfig: sandboxConfig(deps.ctx.config, pod, sandbox.attempt, await deps.hostDNS()), podIPs, hostIPs, volumes, ...(etcHosts ? { etcHosts } : {}) };
  const cur = (name: string): ContainerInstance | undefined => current(view, sandbox.id, name);

  // Containers the probes failed, or whose spec changed, are killed first and started below.
  for (const c of [...(pod.spec.initContainers ?? []).filter(isSidecar), ...pod.spec.containers]) {
    const inst = cur(c.name);
    if (!inst || inst.status.state !== 'CONTAINER_RUNNING') continue;
    const probeMessage = state.killRequests.get(inst.id);
    const changed = inst.status.annotations?.[containerHashAnnotation] !== undefined && inst.status.annotations[containerHashAnnotation] !== containerHash(c);
    if (probeMessage === undefined && !changed) continue;
    state.killRequests.delete(inst.id);
    // kubelet's computePodActions: the probe manager's message, with ", will be restarted" when
    // the container is started again (a changed definition always is; restartPolicy Never is not).
    const restarted = probeMessage === undefined || isSidecar(c) || (pod.spec.restartPolicy ?? 'Always') !== 'Never';
    const base = (probeMessage !== undefined ? probeMessage || `Container ${c.name} failed liveness probe` : `Container ${c.name} definition changed`).replace(/, will be restarted$/, '');
    const msg = restarted ? `${base}, will be restarted` : base;
    await killContainer(deps, state, pod, c, inst, pod.spec.terminationGracePeriodSeconds ?? 30, msg, podIPs[0]);
  }
  state.killRequests.clear();
  view = await readRuntimeView(deps.cri, state.uid);

  // Init containers, in order.
  let initialized = pod.spec.containers.some((c) => cur(c.name) !== undefined);
  let initFailed = false;
  if (!initialized) {
    initialized = true;
    for (const c of pod.spec.initContainers ?? []) {
      const inst = cur(c.name);
      if (!inst) {
        await startOrWait(deps, state, pod, c, nextRestartCount(view, c.name), inp);
        initialized = false;
        break;
      }
      const st = inst.status.state;
      if (isSidecar(c)) {
        if (st === 'CONTAINER_RUNNING' && deps.probes.isStarted(state.uid, c.name)) continue;
        if (st === 'CONTAINER_EXITED') await restart(deps, state, pod, c, inst, inp);
        initialized = false;
        break;
      }
      if (st === 'CONTAINER_EXITED' && (inst.status.exit_code ?? 0) === 0) continue;
      if (st === 'CONTAINER_EXITED') {
        if (policy === 'Never') initFailed = true;
        else await restart(deps, state, pod, c, inst, inp);
      }
      initialized = false;
      break;
    }
  } else {
    // Once initialized, only sidecars are kept running.
    for (const c of (pod.spec.initContainers ?? []).filter(isSidecar)) {
      const inst = cur(c.name);
      if (!inst) await startOrWait(deps, state, pod, c, nextRestartCount(view, c.name), inp);
      else if (inst.status.state === 'CONTAINER_EXITED') await restart(deps, state, pod, c, inst, inp);
    }
  }
  if (initFailed) return { view: await readRuntimeView(deps.cri, state.uid), finished: true };
  if (!initialized) return { view: await readRuntimeView(deps.cri, state.uid), finished: false };

  let done = 0;
  for (const c of pod.spec.containers) {
    const inst = cur(c.name);
    if (!inst) {
      await startOrWait(deps, state, pod, c, nextRestartCount(view, c.name), inp);
      continue;
    }
    const st = inst.status.state;
    if (st === 'CONTAINER_CREATED') {
      // Created but never started (the agent stopped in between): start it over.
      await deps.cri.runtime.RemoveContainer({ container_id: inst.id }).catch(() => undefined);
      await startOrWait(deps, state, pod, c, inst.restartCount, inp);
      continue;
    }
    if (st !== 'CONTAINER_EXITED') continue;
    const exitCode = inst.status.exit_code ?? 0;
    const shouldRestart = policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);
    if (shouldRestart) await restart(deps, state, pod, c, inst, inp);
    else {
      state.waiting.delete(c.name);
      done++;
    }
  }
  view = await readRuntimeView(deps.cri, state.uid);
  return { view, finished: done === pod.spec.containers.length };
}

/** Removes exited instances beyond the newest two per container (kubelet's container GC). */
export async function collectGarbage(deps: WorkerDeps, state: PodState, view: RuntimeView): Promise<void> {
  for (const list of view.containers.values()) {
    for (const old of list.slice(2)) {
      if (old.status.state !== 'CONTAINER_EXITED') continue;
      await deps.cri.runtime.RemoveContainer({ container_id: old.id }).catch((err) => {
        if (!isGrpcCode(err, 'NOT_FOUND')) throw err;
      });
      state.terminationFiles.delete(old.id);
      state.terminationMessages.delete(old.id);
    }
  }
  const used = new Set([...view.containers.values()].flatMap((l) => l.slice(0, 2).map((i) => i.sandboxId)));
  for (const s of view.sandboxes.slice(1)) {
    if (s.state === 'SANDBOX_READY' || used.has(s.id ?? '')) continue;
    await deps.cri.runtime.RemovePodSandbox({ pod_sandbox_id: s.id ?? '' }).catch(() => undefined);
  }
}
