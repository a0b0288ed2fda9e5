/**
 * The pod workers (kubelet's podWorkers with its PLEG and housekeeping): one serialized worker per
 * pod uid, synced on every change from the pod manager, every --sync-frequency, when the runtime
 * shows a container or sandbox of the pod changed state (relisted every second), when a probe
 * changes readiness or fails, and when a back-off ends. Runtime pods of uids no source knows are
 * killed and removed once they stayed unknown for a while (kubelet's housekeeping), so pods the
 * runtime already ran for known pods are adopted after a restart by their labels.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { AgentContext, DesiredPod, PodSyncHandler, ProbeManager, Stoppable } from '../interface.js';
import { ImagePuller } from '../images/puller.js';
import { VolumeManager } from '../volumes/manager.js';
import { Backoff } from './backoff.js';
import { apiConfigObjects } from './config-objects.js';
import { readHostDNS } from './dns.js';
import { hostIPsReader } from './host-ips.js';
import { orphanGraceSeconds } from './kill.js';
import { podUidLabel } from './labels.js';
import { syncPodOnce } from './pod-worker.js';
import { StatusWriter } from './status-writer.js';
import type { PodState, WorkerDeps } from './worker-deps.js';

/** How long runtime pods of an unknown uid are left alone by default (the sources' first listing). */
const defaultOrphanGraceMs = 10_000;
const relistMs = 1000;

const kubeletConditionTypes = new Set(['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady']);

/** What of a desired pod makes a sync worthwhile (not its status, except others' conditions such as readiness gates'). */
function syncRelevant(d: DesiredPod): string {
  const m = d.pod.metadata;
  const conditions = ((d.pod.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []).filter((c) => !kubeletConditionTypes.has(c.type)).map((c) => `${c.type}=${c.status}`);
  return JSON.stringify([d.pod.spec, m.labels, m.annotations, m.deletionTimestamp, m.deletionGracePeriodSeconds, d.mirror?.metadata.uid, conditions]);
}

/** The pod workers. */
export function createPodWorkers(ctx: AgentContext, deps: { probes: ProbeManager; orphanGraceMs?: number }): PodSyncHandler & Stoppable {
  const orphanGraceMs = deps.orphanGraceMs ?? defaultOrphanGraceMs;
  const cri = ctx.cri;
  if (!cri) throw new Error('the pod workers need a container runtime (--container-runtime-endpoint)');
  let runtimeName: Promise<string> | undefined;
  const w: WorkerDeps = {
    ctx,
    cri,
    probes: deps.probes,
    puller: new ImagePuller(cri, ctx.config),
    volumes: new VolumeManager(ctx.config.rootDir, apiConfigObjects(ctx.client), ctx.client),
    objects: apiConfigObjects(ctx.client),
    crashBackoff: new Backoff(10_000, 300_000),
    runtimeName: () =>
      (runtimeName ??= cri.runtime.Version({}).then(
        (v) => v.runtime_name || 'containerd',
        () => {
          runtimeName = undefined;
          return 'containerd';
        },
      )),
    hostIPs: hostIPsReader(ctx),
    hostDNS: () => readHostDNS(ctx.config.resolvConf),
  };
  const states = new Map<string, PodState>();
  const busy = new Map<string, Promise<void>>();
  const dirty = new Set<string>();
  // Pods cleaned up and deleted: later updates (a pod held by finalizers) start nothing again.
  const finishedUids = new Set<string>();
  let stopped = false;

  function newState(desired: DesiredPod): PodState {
    const state: PodState = {
      uid: desired.pod.metadata.uid ?? '',
      desired,
      removed: false,
      waiting: new Map(),
      killRequests: new Map(),
      terminationFiles: new Map(),
      terminationMessages: new Map(),
      running: new Map(),
      writer: new StatusWriter(ctx.client),
      stopped: false,
      finished: false,
      statusTarget: () => (state.desired.source === 'api' ? state.desired.pod : state.desired.mirror),
    };
    return state;
  }

  function kick(uid: string): void {
    if (stopped || !states.has(uid)) return;
    dirty.add(uid);
    if (busy.has(uid)) return;
    const run = (async () => {
      while (dirty.has(uid) && !stopped) {
        dirty.delete(uid);
        const state = states.get(uid);
        if (!state || state.finished) break;
        try {
          await syncPodOnce(w, state);
        } catch (err) {
          ctx.log.error(`Error syncing pod ${state.desired.pod.metadata.namespace}/${state.desired.pod.metadata.name} (${uid}): ${(err as Error).message}`);
          state.wakeAtMs = Date.now() + 2000;
        }
        if (state.finished) {
          states.delete(uid);
          dirty.delete(uid);
          finishedUids.add(uid);
        }
      }
    })().finally(() => busy.delete(uid));
    busy.set(uid, run);
  }

  deps.probes.onChange((uid) => kick(uid));
  deps.probes.onFailure((uid, _name, containerId, message) => {
    const state = states.get(uid);
    if (!state) return;
    state.killRequests.set(containerId, message);
    kick(uid);
  });

  // The relist: what changed in the runtime since the last one, per pod uid.
  let lastSignature = new Map<string, string>();
  const orphanSince = new Map<string, number>();
  async function relist(): Promise<void> {
    const [{ items = [] }, { containers = [] }] = await Promise.all([cri!.runtime.ListPodSandbox({}), cri!.runtime.ListContainers({})]);
    const sig = new Map<string, string>();
    for (const s of items) {
      const uid = s.labels?.[podUidLabel];
      if (uid) sig.set(uid, `${sig.get(uid) ?? ''}|${s.id}:${s.state}`);
    }
    for (const c of containers) {
      const uid = c.labels?.[podUidLabel];
      if (uid) sig.set(uid, `${sig.get(uid) ?? ''}|${c.id}:${c.state}`);
    }
    for (const [uid, s] of sig) if (lastSignature.get(uid) !== s) kick(uid);
    lastSignature = sig;
    const now = Date.now();
    for (const [uid, state] of states) if (state.wakeAtMs !== undefined && state.wakeAtMs <= now) kick(uid);
    // Housekeeping: runtime pods no source wants.
    for (const uid of sig.keys()) {
      if (states.has(uid)) {
        orphanSince.delete(uid);
        continue;
      }
      const since = orphanSince.get(uid) ?? now;
      orphanSince.set(uid, since);
      if (now - since < orphanGraceMs || busy.has(`orphan:${uid}`)) continue;
      const sandboxes = items.filter((s) => s.labels?.[podUidLabel] === uid);
      const own = containers.filter((c) => c.labels?.[podUidLabel] === uid);
      const job = (async () => {
        await Promise.all(own.filter((c) => c.state === 'CONTAINER_RUNNING').map((c) => cri!.runtime.StopContainer({ container_id: c.id ?? '', timeout: orphanGraceSeconds(c.annotations) }).catch(() => undefined)));
        for (const s of sandboxes) {
          await cri!.runtime.StopPodSandbox({ pod_sandbox_id: s.id ?? '' }).catch(() => undefined);
          await cri!.runtime.RemovePodSandbox({ pod_sandbox_id: s.id ?? '' }).catch(() => undefined);
        }
        await w.volumes.tearDown(uid).catch(() => undefined);
        orphanSince.delete(uid);
      })().finally(() => busy.delete(`orphan:${uid}`));
      busy.set(`orphan:${uid}`, job);
    }
  }
  let relisting = false;
  const relistTimer = setInterval(() => {
    if (relisting || stopped) return;
    relisting = true;
    relist()
      .catch((err) => ctx.log.error(`PLEG relist failed: ${(err as Error).message}`))
      .finally(() => {
        relisting = false;
      });
  }, relistMs);
  const resyncTimer = setInterval(() => {
    for (const uid of states.keys()) kick(uid);
  }, Math.max(1000, ctx.config.syncFrequencyMs));

  function podOf(state: PodState): KubeObject {
    const pod = state.desired.pod;
    return state.status ? { ...pod, status: state.status } : pod;
  }

  return {
    syncPod(desired) {
      const uid = desired.pod.metadata.uid ?? '';
      if (!uid || finishedUids.has(uid)) return;
      const state = states.get(uid);
      if (state) {
        if (state.removed) return;
        const changed = syncRelevant(state.desired) !== syncRelevant(desired);
        state.desired = desired;
        // A status-only update is kubelet's RECONCILE: nothing to sync.
        if (!changed) return;
      } else states.set(uid, newState(desired));
      kick(uid);
    },
    removePod(uid) {
      finishedUids.delete(uid);
      const state = states.get(uid);
      if (!state) return;
      state.removed = true;
      kick(uid);
    },
    runningPods() {
      return [...states.values()].filter((s) => !s.finished).map(podOf);
    },
    findPod(namespace, name) {
      for (const s of states.values()) {
        const m = s.desired.pod.metadata;
        if (m.namespace === namespace && m.name === name && !s.finished) return podOf(s);
      }
      return undefined;
    },
    containerId(podUid, containerName) {
      return states.get(podUid)?.view?.containers.get(containerName)?.[0]?.id;
    },
    evictPod(podUid, message, gracePeriodSeconds) {
      const state = states.get(podUid);
      if (!state) return Promise.resolve();
      return new Promise<void>((resolve) => {
        if (!state.evicted) state.evicted = { message, graceSeconds: gracePeriodSeconds, done: [] };
        state.evicted.done.push(resolve);
        kick(podUid);
      });
    },
    async stop() {
      stopped = true;
      clearInterval(relistTimer);
      clearInterval(resyncTimer);
      await Promise.allSettled([...busy.values()]);
    },
  };
}
