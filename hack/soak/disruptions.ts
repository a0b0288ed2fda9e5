/**
 * Carries out the disruption plan: an API server restart is a SIGTERM (graceful shutdown) and a
 * start on the same port, the servers taken in turn; a compaction compacts etcd to its current
 * revision; a member restart SIGKILLs one etcd member (the members taken in turn) and starts it
 * again on its data after a few seconds. Each is recorded with when it began and when the
 * disrupted part served again.
 */
import type { ControlPlane } from './control-plane.js';
import { compactToCurrent } from './etcd-ops.js';
import type { Recorder } from './recorder.js';
import type { PlannedDisruption } from './schedule.js';
import type { Disruption } from './stats.js';

/** Runs the plan against the control plane as time passes. */
export class DisruptionRunner {
  readonly done: Disruption[] = [];
  private stopped = false;
  private running: Promise<void> = Promise.resolve();
  private restarts = 0;
  private memberRestarts = 0;

  constructor(
    private readonly plane: ControlPlane,
    private readonly recorder: Recorder,
    private readonly plan: readonly PlannedDisruption[],
  ) {}

  /** Starts following the plan (times relative to the recorder's start). */
  start(): void {
    this.running = (async () => {
      for (const p of this.plan) {
        while (!this.stopped && this.recorder.now() < p.at) await sleep(Math.min(1000, p.at - this.recorder.now()));
        if (this.stopped) return;
        await this.run(p).catch((err: unknown) => this.recorder.defect(`${p.kind} failed: ${(err as Error).message}`));
      }
    })();
  }

  /** Stops after the disruption in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async run(p: PlannedDisruption): Promise<void> {
    const start = this.recorder.now();
    if (p.kind === 'apiserver-restart') {
      const s = this.plane.servers[this.restarts++ % this.plane.servers.length];
      if (!s) return;
      const stopped = await s.stop();
      if (stopped.killed) this.recorder.defect(`${s.name} did not finish its graceful shutdown in 90 s and was killed`);
      else if (stopped.code !== 0) this.recorder.defect(`${s.name} exited with code ${stopped.code} on SIGTERM`);
      await s.start();
      this.record(p, s.name, start, `graceful stop ${(stopped.ms / 1000).toFixed(1)} s`);
    } else if (p.kind === 'etcd-compaction') {
      const rev = await compactToCurrent(this.plane.etcd);
      this.record(p, `revision ${rev}`, start);
    } else {
      const m = this.plane.etcd.members[this.memberRestarts++ % this.plane.etcd.members.length];
      if (!m) return;
      await m.kill();
      await sleep(5000);
      await m.start();
      this.record(p, `etcd-${m.name}`, start);
    }
  }

  private record(p: PlannedDisruption, target: string, start: number, detail = ''): void {
    const end = this.recorder.now();
    this.done.push({ kind: p.kind, target, start, end });
    this.recorder.note(`${p.kind} ${target} at ${(start / 1000).toFixed(0)}s, back after ${((end - start) / 1000).toFixed(1)} s${detail ? ` (${detail})` : ''}`);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.max(0, ms)));
}
