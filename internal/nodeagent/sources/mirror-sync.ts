/**
 * Keeps mirror pods in step with static pods: a static pod without a current mirror gets one
 * (an outdated or terminating mirror is deleted first, then recreated), and once every source has
 * delivered its first set, mirrors of static pods that no longer exist are deleted. Runs after
 * each update, one pass at a time; a failed pass is retried after a back-off.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { AgentContext } from '../interface.js';
import { Backoff } from './backoff.js';
import { createMirrorPod, deleteMirrorPod, isMirrorPodOf, podFullName } from './mirror-pods.js';

/** What a pass reads. */
export interface MirrorState {
  /** The admitted static pods. */
  staticPods(): KubeObject[];
  /** The mirror pods the API source sees. */
  mirrors(): KubeObject[];
  /** True when every source has delivered its first set (only then are orphans known). */
  ready(): boolean;
}

/** The mirror pod reconciler. */
export class MirrorSync {
  private running = false;
  private again = false;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly backoff = new Backoff(500, 10_000);

  constructor(
    private readonly ctx: AgentContext,
    private readonly state: MirrorState,
  ) {}

  /** Asks for a pass (coalesced with one already running). */
  trigger(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.loop();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }

  private async loop(): Promise<void> {
    try {
      do {
        this.again = false;
        if (!this.state.ready()) break;
        const failed = await this.pass();
        if (failed && !this.stopped) {
          clearTimeout(this.retry);
          this.retry = setTimeout(() => this.trigger(), this.backoff.next());
          this.retry.unref();
        } else {
          this.backoff.reset();
        }
      } while (this.again && !this.stopped);
    } finally {
      this.running = false;
    }
  }

  /** One pass; resolves true when some write failed. */
  private async pass(): Promise<boolean> {
    let failed = false;
    const mirrors = new Map(this.state.mirrors().map((m) => [podFullName(m), m]));
    const statics = this.state.staticPods();
    for (const pod of statics) {
      if (this.stopped) return false;
      const name = podFullName(pod);
      const mirror = mirrors.get(name);
      if (mirror && isMirrorPodOf(mirror, pod)) continue;
      try {
        if (mirror) {
          this.ctx.log.info('Deleting mirror pod because it is outdated', { pod: name });
          await deleteMirrorPod(this.ctx, mirror);
        }
        this.ctx.log.v(2, 'Creating a mirror pod for static pod', { pod: name });
        await createMirrorPod(this.ctx, pod);
      } catch (err) {
        failed = true;
        this.ctx.log.error('Failed creating a mirror pod', { pod: name, err: (err as Error).message });
      }
    }
    const wanted = new Set(statics.map(podFullName));
    for (const [name, mirror] of mirrors) {
      if (this.stopped || wanted.has(name)) continue;
      try {
        this.ctx.log.info('Deleting orphaned mirror pod', { pod: name });
        await deleteMirrorPod(this.ctx, mirror);
      } catch (err) {
        failed = true;
        this.ctx.log.error('Failed deleting orphaned mirror pod', { pod: name, err: (err as Error).message });
      }
    }
    return failed;
  }
}
