/**
 * The probe manager (kubelet's prober manager): one worker per probe of each running container
 * (regular containers and sidecars), readiness and startup results kept per container, the
 * onFailure handlers called once per liveness or startup failure run (with kubelet's
 * "Container <name> failed liveness probe" text; the pod worker restarts the container), and
 * onChange handlers called when readiness or startup results change. Readiness starts false when
 * the container has a readiness probe; startup is false until the startup probe succeeds; both
 * turn false when the container stops and start over when it is replaced.
 * terminationGracePeriodSeconds of a probe is the pod worker's business when it restarts.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { AgentContext, ProbeManager } from '../interface.js';
import type { ProbeType } from './interface.js';
import { ProbeWorker, type ContainerInstance } from './worker.js';

type Json = Record<string, any>;

interface ContainerProbes {
  instance: ContainerInstance;
  readonly workers: ProbeWorker[];
  /** Readiness result (undefined: no readiness probe). */
  ready?: boolean;
  /** Startup result (undefined: no startup probe). */
  started?: boolean;
}

const probeFields: Record<ProbeType, string> = { liveness: 'livenessProbe', readiness: 'readinessProbe', startup: 'startupProbe' };

function key(podUid: string, containerName: string): string {
  return `${podUid}/${containerName}`;
}

function findContainer(pod: KubeObject, name: string): Json | undefined {
  const spec = (pod.spec ?? {}) as Json;
  const all = [...(Array.isArray(spec.containers) ? spec.containers : []), ...(Array.isArray(spec.initContainers) ? spec.initContainers : []).filter((c: Json) => c.restartPolicy === 'Always')];
  return all.find((c: Json) => c.name === name);
}

/** The probe manager. */
export function createProbeManager(ctx: AgentContext): ProbeManager {
  const managerStartMs = Date.now();
  const containers = new Map<string, ContainerProbes>();
  const podIPs = new Map<string, string>();
  const failureHandlers: ((podUid: string, containerName: string, containerId: string, message: string) => void)[] = [];
  const changeHandlers: ((podUid: string) => void)[] = [];

  const changed = (podUid: string): void => {
    for (const h of changeHandlers) h(podUid);
  };

  /** The pod's IP from its status, else from the runtime's sandbox of the container. */
  const podIP = async (instance: ContainerInstance): Promise<string> => {
    const status = (instance.pod.status ?? {}) as Json;
    const fromStatus = status.podIP ?? (Array.isArray(status.podIPs) ? status.podIPs[0]?.ip : undefined);
    if (fromStatus) return String(fromStatus);
    const uid = instance.pod.metadata.uid ?? '';
    const cached = podIPs.get(uid);
    if (cached !== undefined) return cached;
    let ip = '';
    if (ctx.cri) {
      const list = await ctx.cri.runtime.ListContainers({ filter: { id: instance.containerId } }).catch(() => undefined);
      const sandboxId = list?.containers?.[0]?.pod_sandbox_id;
      if (sandboxId) {
        const sandbox = await ctx.cri.runtime.PodSandboxStatus({ pod_sandbox_id: sandboxId }).catch(() => undefined);
        ip = sandbox?.status?.network?.ip ?? '';
      }
    }
    if (ip) podIPs.set(uid, ip);
    return ip || '127.0.0.1';
  };

  const startWorkers = (entry: ContainerProbes, podUid: string, containerName: string): void => {
    for (const type of ['startup', 'liveness', 'readiness'] as const) {
      const spec = entry.instance.container[probeFields[type]] as Json | undefined;
      if (!spec) continue;
      entry.workers.push(
        new ProbeWorker(type, spec, entry.instance, {
          ...(ctx.cri ? { cri: ctx.cri } : {}),
          events: ctx.events,
          managerStartMs,
          isStarted: () => entry.started !== false,
          podIP: () => podIP(entry.instance),
          setResult: (t, success) => {
            if (t === 'readiness') {
              if (entry.ready !== success) {
                entry.ready = success;
                changed(podUid);
              }
            } else if (t === 'startup') {
              if (success && entry.started !== true) {
                entry.started = true;
                changed(podUid);
              }
            }
            if (!success && t !== 'readiness') {
              const message = `Container ${containerName} failed ${t} probe`;
              for (const h of failureHandlers) h(podUid, containerName, entry.instance.containerId, message);
            }
          },
        }),
      );
    }
  };

  const stopContainer = (k: string): void => {
    const entry = containers.get(k);
    if (!entry) return;
    for (const w of entry.workers) w.stop();
    containers.delete(k);
  };

  /** A stopped container is not ready (when it has a readiness probe) nor started (startup probe). */
  const containerGone = (k: string, podUid: string): void => {
    const entry = containers.get(k);
    if (!entry) return;
    for (const w of entry.workers) w.stop();
    entry.workers.length = 0;
    const before = [entry.ready, entry.started];
    if (entry.ready !== undefined) entry.ready = false;
    if (entry.started !== undefined) entry.started = false;
    if (before[0] !== entry.ready || before[1] !== entry.started) changed(podUid);
  };

  return {
    containerStarted(pod, containerName, containerId, startedAtMs) {
      const podUid = pod.metadata.uid ?? '';
      const container = findContainer(pod, containerName);
      if (!container) return;
      const k = key(podUid, containerName);
      const instance: ContainerInstance = { pod, container, containerId, startedAtMs };
      const existing = containers.get(k);
      if (existing && existing.instance.containerId === containerId && existing.workers.length > 0) return;
      const entry: ContainerProbes = existing ?? { instance, workers: [] };
      entry.instance = instance;
      const before = [entry.ready, entry.started];
      entry.ready = container.readinessProbe ? false : undefined;
      entry.started = container.startupProbe ? false : undefined;
      containers.set(k, entry);
      if (entry.workers.length > 0) for (const w of entry.workers) w.replace(instance);
      else startWorkers(entry, podUid, containerName);
      if (before[0] !== entry.ready || before[1] !== entry.started) changed(podUid);
    },
    containerStopped(podUid, containerName) {
      containerGone(key(podUid, containerName), podUid);
    },
    removePod(podUid) {
      for (const k of [...containers.keys()]) if (k.startsWith(`${podUid}/`)) stopContainer(k);
      podIPs.delete(podUid);
    },
    isReady(podUid, containerName) {
      return containers.get(key(podUid, containerName))?.ready ?? true;
    },
    isStarted(podUid, containerName) {
      return containers.get(key(podUid, containerName))?.started ?? true;
    },
    onFailure(handler) {
      failureHandlers.push(handler);
    },
    onChange(handler) {
      changeHandlers.push(handler);
    },
    stop() {
      for (const k of [...containers.keys()]) stopContainer(k);
    },
  };
}
