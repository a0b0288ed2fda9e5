/**
 * The pod manager: merges the sources' sets (pod-config.ts), admits new pods (admission.ts) and
 * rejects the ones that do not fit (event and status Failed through pods/status, never run),
 * drives the PodSyncHandler (syncPod for new and changed pods, with the mirror of static pods;
 * removePod for pods gone from their source), and keeps mirror pods in step (mirror-sync.ts).
 * Updates are applied one at a time in arrival order.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { AgentContext, DesiredPod, PodManager, PodSourceName, PodSyncHandler } from '../interface.js';
import { canAdmitPod, isStaticPod } from './admission.js';
import type { PodSource } from './interface.js';
import { isMirrorPod, isMirrorPodOf, podFullName } from './mirror-pods.js';
import { MirrorSync } from './mirror-sync.js';
import { getNodeAnyWay } from './node-info.js';
import { diffSource } from './pod-config.js';
import { writeRejection } from './reject.js';

interface KnownPod {
  pod: KubeObject;
  readonly source: PodSourceName;
  readonly admitted: boolean;
  /** The uid of the mirror last handed to the handler (static pods). */
  mirrorUid?: string;
}

const terminal = new Set(['Succeeded', 'Failed']);

function phaseOf(pod: KubeObject | undefined): string | undefined {
  return (pod?.status as { phase?: string } | undefined)?.phase;
}

/** The merged pod state of one node; sources call update(); start/stop via startPodManager. */
export class MergedPodManager implements PodManager {
  private readonly known = new Map<string, KnownPod>();
  private mirrors = new Map<string, KubeObject>();
  private queue: Promise<void> = Promise.resolve();
  private readonly mirrorSync: MirrorSync;
  readonly sources: PodSource[] = [];

  constructor(
    private readonly ctx: AgentContext,
    private readonly handler: PodSyncHandler,
  ) {
    this.mirrorSync = new MirrorSync(ctx, {
      staticPods: () => [...this.known.values()].filter((k) => k.admitted && k.source !== 'api').map((k) => k.pod),
      mirrors: () => [...this.mirrors.values()],
      ready: () => this.sources.every((s) => s.synced),
    });
  }

  /** A source's complete set (serialized behind earlier updates). */
  update(source: PodSourceName, pods: readonly KubeObject[]): void {
    this.queue = this.queue.then(() => this.apply(source, pods)).catch((err: Error) => this.ctx.log.error('Pod update failed', { source, err: err.message }));
  }

  /** Resolves once every update received so far is applied (tests, shutdown). */
  settled(): Promise<void> {
    return this.queue;
  }

  pods(): readonly DesiredPod[] {
    return [...this.known.values()].filter((k) => k.admitted).map((k) => this.desired(k));
  }

  async stop(): Promise<void> {
    for (const s of this.sources) s.stop();
    this.mirrorSync.stop();
    await this.queue;
  }

  private desired(k: KnownPod): DesiredPod {
    const mirror = k.source === 'api' ? undefined : this.mirrors.get(podFullName(k.pod));
    const current = mirror && isMirrorPodOf(mirror, k.pod) ? mirror : undefined;
    k.mirrorUid = current?.metadata.uid;
    return { pod: k.pod, source: k.source, ...(current ? { mirror: current } : {}) };
  }

  private async apply(source: PodSourceName, all: readonly KubeObject[]): Promise<void> {
    let pods = all;
    if (source === 'api') {
      this.mirrors = new Map(all.filter(isMirrorPod).map((p) => [podFullName(p), p]));
      pods = all.filter((p) => !isMirrorPod(p));
    }
    const mine = new Map([...this.known].filter(([, k]) => k.source === source).map(([uid, k]) => [uid, k.pod]));
    const delta = diffSource(source, pods, mine, this.ctx.events);
    for (const uid of delta.removed) {
      const k = this.known.get(uid);
      this.known.delete(uid);
      if (k?.admitted) this.handler.removePod(uid);
    }
    for (const pod of delta.refreshed) {
      const k = this.known.get(pod.metadata.uid ?? '');
      if (k) k.pod = pod;
    }
    for (const pod of delta.updated) {
      const k = this.known.get(pod.metadata.uid ?? '');
      if (!k) continue;
      k.pod = pod;
      if (k.admitted) this.handler.syncPod(this.desired(k));
    }
    if (delta.added.length > 0) await this.admit(source, delta.added);
    // A static pod's mirror appeared, changed or went: the worker writes status to the new one.
    for (const k of this.known.values()) {
      if (!k.admitted || k.source === 'api') continue;
      const mirror = this.mirrors.get(podFullName(k.pod));
      const uid = mirror && isMirrorPodOf(mirror, k.pod) ? mirror.metadata.uid : undefined;
      if (uid !== k.mirrorUid) this.handler.syncPod(this.desired(k));
    }
    this.mirrorSync.trigger();
  }

  /** HandlePodAdditions: oldest first, each admitted against the pods admitted before it. */
  private async admit(source: PodSourceName, added: KubeObject[]): Promise<void> {
    const byAge = (p: KubeObject): string => p.metadata.creationTimestamp ?? '';
    added.sort((a, b) => (byAge(a) < byAge(b) ? -1 : byAge(a) > byAge(b) ? 1 : 0));
    const node = await getNodeAnyWay(this.ctx);
    const workerStatus = new Map(this.handler.runningPods().map((p) => [p.metadata.uid ?? '', p]));
    for (const pod of added) {
      const uid = pod.metadata.uid ?? '';
      // Pods already finished or being deleted are handed over to be cleaned up, not admitted.
      if (terminal.has(phaseOf(pod) ?? '') || pod.metadata.deletionTimestamp) {
        this.accept(uid, pod, source);
        continue;
      }
      const others = [...this.known.entries()]
        .filter(([otherUid, k]) => k.admitted && otherUid !== uid && !terminal.has(phaseOf(workerStatus.get(otherUid)) ?? phaseOf(k.pod) ?? ''))
        .map(([, k]) => k.pod);
      const result = canAdmitPod(pod, others, node);
      if (result.admit) {
        this.accept(uid, pod, source);
        continue;
      }
      this.known.set(uid, { pod, source, admitted: false });
      this.ctx.log.info('Pod rejected', { pod: podFullName(pod), reason: result.reason, message: result.message });
      this.ctx.events.event(pod, 'Warning', result.reason ?? '', result.message ?? '');
      const target = isStaticPod(pod) ? this.mirrors.get(podFullName(pod)) : pod;
      if (target) await writeRejection(this.ctx, target, pod, result.reason ?? '', result.message ?? '');
    }
  }

  private accept(uid: string, pod: KubeObject, source: PodSourceName): void {
    const k: KnownPod = { pod, source, admitted: true };
    this.known.set(uid, k);
    this.handler.syncPod(this.desired(k));
  }
}
