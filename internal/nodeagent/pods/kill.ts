/**
 * Stopping containers and pods as kubelet's killContainer and killPodWithSyncResult do: a Killing
 * event, the preStop hook within the grace period, StopContainer with what remains of it (at
 * least 2 s, kubelet's minimum), regular containers together and sidecars after them in reverse
 * order, then StopPodSandbox.
 */
import { isGrpcCode } from '../runtime/cri-client.js';
import { gracePeriodAnnotation } from './labels.js';
import { runHandler } from './hooks.js';
import type { ContainerInstance, RuntimeView } from './runtime-view.js';
import { sandboxIPs } from './runtime-view.js';
import type { PodState, WorkerDeps } from './worker-deps.js';
import type { Container, Pod } from './types.js';
import { isSidecar } from './types.js';
import { containerFieldPath } from '../events/field-path.js';

/** kubelet's minimumGracePeriodInSeconds. */
export const minimumGraceSeconds = 2;

/** The grace period a pod's containers get when it is deleted or removed. */
export function podGraceSeconds(pod: Pod): number {
  return pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
}

/** Stops one running container; message is the Killing event's text. */
export async function killContainer(deps: WorkerDeps, state: PodState, pod: Pod, c: Container | undefined, inst: ContainerInstance, graceSeconds: number, message?: string, podIP?: string): Promise<void> {
  const name = c?.name ?? inst.status.metadata?.name ?? '';
  deps.ctx.events.event(pod, 'Normal', 'Killing', message ?? `Stopping container ${name}`, containerFieldPath(pod, name));
  const started = Date.now();
  let grace = graceSeconds;
  if (c?.lifecycle?.preStop && inst.status.state === 'CONTAINER_RUNNING') {
    const failure = await runHandler(deps.cri, c.lifecycle.preStop, c, inst.id, podIP, grace * 1000);
    if (failure) deps.ctx.events.event(pod, 'Warning', 'FailedPreStopHook', failure, containerFieldPath(pod, name));
    grace -= Math.floor((Date.now() - started) / 1000);
  }
  grace = Math.max(grace, minimumGraceSeconds);
  deps.probes.containerStopped(state.uid, name);
  state.running.delete(name);
  try {
    await deps.cri.runtime.StopContainer({ container_id: inst.id, timeout: grace });
  } catch (err) {
    if (!isGrpcCode(err, 'NOT_FOUND')) throw err;
  }
}

/** Stops every running container of the pod (sidecars last) and its sandboxes. */
export async function killPod(deps: WorkerDeps, state: PodState, pod: Pod, view: RuntimeView, graceSeconds: number): Promise<void> {
  const specs = new Map<string, Container>([...(pod.spec.initContainers ?? []), ...pod.spec.containers].map((c) => [c.name, c]));
  const podIP = sandboxIPs(view.sandboxStatus)[0];
  const live = (names: string[]): ContainerInstance[] =>
    names.flatMap((n) => (view.containers.get(n) ?? []).filter((i) => i.status.state === 'CONTAINER_RUNNING' || i.status.state === 'CONTAINER_CREATED'));
  const sidecars = (pod.spec.initContainers ?? []).filter(isSidecar).map((c) => c.name).reverse();
  const others = [...view.containers.keys()].filter((n) => !sidecars.includes(n));
  await Promise.all(live(others).map((i) => killContainer(deps, state, pod, specs.get(i.status.metadata?.name ?? ''), i, graceSeconds, undefined, podIP)));
  for (const i of live(sidecars)) await killContainer(deps, state, pod, specs.get(i.status.metadata?.name ?? ''), i, graceSeconds, undefined, podIP);
  for (const s of view.sandboxes) {
    if (s.state !== 'SANDBOX_READY') continue;
    await deps.cri.runtime.StopPodSandbox({ pod_sandbox_id: s.id ?? '' }).catch((err) => {
      if (!isGrpcCode(err, 'NOT_FOUND')) throw err;
    });
  }
}

/** Removes every sandbox of the view (and with them their containers). */
export async function removeSandboxes(deps: WorkerDeps, view: RuntimeView): Promise<void> {
  for (const s of view.sandboxes) {
    await deps.cri.runtime.StopPodSandbox({ pod_sandbox_id: s.id ?? '' }).catch(() => undefined);
    await deps.cri.runtime.RemovePodSandbox({ pod_sandbox_id: s.id ?? '' }).catch((err) => {
      if (!isGrpcCode(err, 'NOT_FOUND')) throw err;
    });
  }
}

/** The grace period an orphaned container was created with (its annotation), at least the minimum. */
export function orphanGraceSeconds(annotations: Record<string, string> | undefined): number {
  const v = Number(annotations?.[gracePeriodAnnotation] ?? 30);
  return Math.max(Number.isFinite(v) ? v : 30, minimumGraceSeconds);
}
