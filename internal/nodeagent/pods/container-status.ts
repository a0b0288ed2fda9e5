/**
 * A container's API status from the runtime's instances (kubelet's convertToAPIContainerStatuses):
 * state from the newest instance (running, terminated, or waiting with the reason the last sync
 * gave, such as CrashLoopBackOff or ErrImagePull), lastState from the instance before it (or from
 * the newest when that one waits to be restarted), restartCount from the newest instance, ready and
 * started from the probes, image, imageID and containerID "<runtime>://<id>".
 */
import type { ProbeResults } from '../interface.js';
import type { ContainerInstance } from './runtime-view.js';
import { nsToTime } from './runtime-view.js';
import type { Container } from './types.js';

/** Why a container is waiting, as the last sync found. */
export interface Waiting {
  readonly reason: string;
  readonly message?: string;
}

/** A container's API status (JSON). */
export type ContainerStatusJson = Record<string, unknown> & { name: string; state: Record<string, any>; lastState: Record<string, any>; ready: boolean; restartCount: number; started?: boolean };

function terminated(inst: ContainerInstance, runtimeName: string, messages: ReadonlyMap<string, string>): Record<string, unknown> {
  const s = inst.status;
  const exitCode = s.exit_code ?? 0;
  const message = messages.get(inst.id) || s.message || undefined;
  return {
    exitCode,
    reason: s.reason || (exitCode === 0 ? 'Completed' : 'Error'),
    ...(message ? { message } : {}),
    startedAt: nsToTime(s.started_at) ?? null,
    finishedAt: nsToTime(s.finished_at) ?? null,
    containerID: `${runtimeName}://${inst.id}`,
  };
}

/** The status of c. waiting: the reason the last sync left it waiting (undefined: none). */
export function containerStatus(
  podUid: string,
  c: Container,
  instances: readonly ContainerInstance[] | undefined,
  waiting: Waiting | undefined,
  defaultWaiting: string,
  probes: ProbeResults,
  runtimeName: string,
  messages: ReadonlyMap<string, string>,
): ContainerStatusJson {
  const latest = instances?.[0];
  const previous = instances?.[1];
  const base = { name: c.name, image: c.image ?? '', imageID: latest?.status.image_ref ?? '' };
  if (!latest) {
    return { ...base, state: { waiting: { reason: waiting?.reason ?? defaultWaiting, ...(waiting?.message ? { message: waiting.message } : {}) } }, lastState: {}, ready: false, restartCount: 0, started: false };
  }
  const containerID = `${runtimeName}://${latest.id}`;
  const state = latest.status.state;
  let st: Record<string, unknown>;
  let last: Record<string, unknown> = previous && previous.status.state === 'CONTAINER_EXITED' ? { terminated: terminated(previous, runtimeName, messages) } : {};
  let running = false;
  if (state === 'CONTAINER_RUNNING') {
    running = true;
    st = { running: { startedAt: nsToTime(latest.status.started_at) ?? null } };
  } else if (state === 'CONTAINER_EXITED') {
    if (waiting) {
      st = { waiting: { reason: waiting.reason, ...(waiting.message ? { message: waiting.message } : {}) } };
      last = { terminated: terminated(latest, runtimeName, messages) };
    } else st = { terminated: terminated(latest, runtimeName, messages) };
  } else {
    st = { waiting: { reason: waiting?.reason ?? 'ContainerCreating', ...(waiting?.message ? { message: waiting.message } : {}) } };
  }
  const started = running && probes.isStarted(podUid, c.name);
  const ready = started && probes.isReady(podUid, c.name);
  return { ...base, containerID, state: st, lastState: last, ready, restartCount: latest.restartCount, started };
}
