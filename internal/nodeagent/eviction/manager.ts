/**
 * The eviction manager, as kubelet's: every 10 s it observes the signals of the Summary, finds the
 * --eviction-hard thresholds crossed and the --eviction-soft ones crossed for their grace period,
 * keeps MemoryPressure/DiskPressure/PIDPressure set while a threshold is crossed and for
 * --eviction-pressure-transition-period after, reclaims node-level resources first for disk
 * pressure (image garbage collection), and otherwise evicts one pod per pass, ranked as kubelet
 * ranks them, with kubelet's message and a Warning "Evicted" event. Hard evictions use a grace
 * period of 1 s; soft ones the pod's own capped at --eviction-max-pod-grace-period.
 */
import type { Logger } from '../../observability/logging.js';
import type { EventRecorder, EvictionThreshold, NodeAgentConfig, PodSyncHandler, SummaryProvider } from '../interface.js';
import { sleep } from '../node/lease.js';
import { evictionMessage } from './message.js';
import { rankPods } from './rank.js';
import { conditionOf, observeSignals, resourceOf, thresholdsMet, type Observations } from './signals.js';

/** kubelet's eviction monitoring period and the grace period of hard evictions. */
export const evictionMonitoringPeriodMs = 10_000;
const immediateEvictionGracePeriodSeconds = 1;

/** Reclaims image filesystem space (the image garbage collector). */
export interface ImageReclaimer {
  /** Removes unused images until bytesToFree were freed (or none is left); returns the bytes freed. */
  freeSpace(bytesToFree: number): Promise<number>;
}

/** What the manager needs. */
export interface EvictionDeps {
  readonly config: Pick<NodeAgentConfig, 'evictionHard' | 'evictionSoft' | 'evictionPressureTransitionPeriodMs' | 'evictionMaxPodGracePeriod'>;
  /** Where signals come from (the node's Summary; tests inject their own). */
  readonly stats: SummaryProvider;
  readonly pods: Pick<PodSyncHandler, 'runningPods' | 'evictPod'>;
  readonly events?: EventRecorder;
  readonly log: Logger;
  readonly now?: () => number;
}

/** The pressure conditions as the node status reads them. */
export interface NodePressure {
  readonly memoryPressure: boolean;
  readonly diskPressure: boolean;
  readonly pidPressure: boolean;
}

const key = (t: EvictionThreshold, hard: boolean) => `${hard ? 'hard' : 'soft'}:${t.signal}`;

/** The eviction manager of one node. */
export class EvictionManager {
  private readonly firstObservedMs = new Map<string, number>();
  private readonly conditionLastObservedMs = new Map<string, number>();
  private imageGC: ImageReclaimer | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: EvictionDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** The image garbage collector disk pressure reclaims through first. */
  setImageGC(gc: ImageReclaimer): void {
    this.imageGC = gc;
  }

  /** The conditions' current state: set while observed within the pressure transition period. */
  pressure(): NodePressure {
    const now = this.now();
    const on = (c: string) => {
      const at = this.conditionLastObservedMs.get(c);
      return at !== undefined && now - at < this.deps.config.evictionPressureTransitionPeriodMs;
    };
    return { memoryPressure: on('MemoryPressure'), diskPressure: on('DiskPressure'), pidPressure: on('PIDPressure') };
  }

  /**
   * One pass (kubelet's synchronize): observe, update the conditions, and evict at most one pod.
   * Returns the uid of the pod evicted, if any.
   */
  async synchronize(): Promise<string | undefined> {
    const summary = await this.deps.stats.summary();
    const observations = observeSignals(summary);
    const now = this.now();
    const hard = thresholdsMet(this.deps.config.evictionHard, observations).map((t) => ({ t, hard: true }));
    const soft = thresholdsMet(this.deps.config.evictionSoft, observations).map((t) => ({ t, hard: false }));
    const met = [...hard, ...soft];
    const metKeys = new Set(met.map(({ t, hard: h }) => key(t, h)));
    for (const k of [...this.firstObservedMs.keys()]) if (!metKeys.has(k)) this.firstObservedMs.delete(k);
    for (const { t, hard: h } of met) {
      if (!this.firstObservedMs.has(key(t, h))) this.firstObservedMs.set(key(t, h), now);
      this.conditionLastObservedMs.set(conditionOf(t.signal), now);
    }
    // Soft thresholds act only once crossed for their whole grace period.
    const acting = met.filter(({ t, hard: h }) => h || now - (this.firstObservedMs.get(key(t, h)) ?? now) >= (t.gracePeriodMs ?? 0));
    if (acting.length === 0) return undefined;
    // Memory first, as kubelet's byEvictionPriority; then the rest in their given order.
    acting.sort((a, b) => Number(resourceOf(b.t.signal) === 'memory') - Number(resourceOf(a.t.signal) === 'memory'));
    const { t: threshold, hard: isHard } = acting[0]!;
    if (await this.reclaimNodeLevel(threshold, observations)) return undefined;
    return this.evictOne(threshold, isHard, observations, summary);
  }

  private async reclaimNodeLevel(threshold: EvictionThreshold, observations: Observations): Promise<boolean> {
    if (!this.imageGC || !threshold.signal.startsWith('imagefs') && !threshold.signal.startsWith('nodefs')) return false;
    if (threshold.signal.endsWith('inodesFree')) return false;
    const o = observations.get(threshold.signal);
    if (!o) return false;
    const wanted = (threshold.quantity ?? Math.floor(o.capacity * (threshold.percentage ?? 0))) - o.available;
    const freed = await this.imageGC.freeSpace(Math.max(0, wanted)).catch(() => 0);
    if (freed >= wanted) {
      this.deps.log.info('Eviction manager: able to reduce resource pressure without evicting pods', { resourceName: resourceOf(threshold.signal) });
      return true;
    }
    return false;
  }

  private async evictOne(threshold: EvictionThreshold, isHard: boolean, observations: Observations, summary: Record<string, any>): Promise<string | undefined> {
    const statsByUid = new Map<string, Record<string, any>>((summary.pods ?? []).map((p: any) => [p.podRef?.uid, p]));
    const active = this.deps.pods.runningPods().filter((p: any) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed' && !isCritical(p));
    const resource = resourceOf(threshold.signal);
    const ranked = rankPods(active.map((pod) => ({ pod: pod as Record<string, any>, stats: statsByUid.get(pod.metadata.uid ?? '') })), resource === 'inodes' ? 'ephemeral-storage' : resource);
    for (const { pod, stats } of ranked) {
      const { message } = evictionMessage(threshold, observations, pod, stats);
      const podGrace = pod.spec?.terminationGracePeriodSeconds ?? 30;
      const maxGrace = this.deps.config.evictionMaxPodGracePeriod;
      const grace = isHard ? immediateEvictionGracePeriodSeconds : maxGrace > 0 ? Math.min(maxGrace, podGrace) : podGrace;
      this.deps.log.info('Evicting pod', { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, podUID: pod.metadata.uid, message });
      this.deps.events?.event(pod as never, 'Warning', 'Evicted', message);
      try {
        await this.deps.pods.evictPod(pod.metadata.uid, message, grace);
        return pod.metadata.uid as string;
      } catch (err) {
        this.deps.log.error('Eviction manager: pod failed to evict', { pod: `${pod.metadata.namespace}/${pod.metadata.name}`, err: (err as Error).message });
      }
    }
    return undefined;
  }

  /** Synchronizes every 10 s until signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await this.synchronize().catch((err) => this.deps.log.error('Eviction manager: failed to synchronize', { err: (err as Error).message }));
      await sleep(evictionMonitoringPeriodMs, signal);
    }
  }
}

/** Static, mirror and system-critical pods are not evicted (kubelet's IsCriticalPod). */
function isCritical(pod: Record<string, any>): boolean {
  const source = pod.metadata?.annotations?.['kubernetes.io/config.source'];
  if (source && source !== 'api') return true;
  if (pod.metadata?.annotations?.['kubernetes.io/config.mirror']) return true;
  return (pod.spec?.priority ?? 0) >= 2_000_000_000;
}
