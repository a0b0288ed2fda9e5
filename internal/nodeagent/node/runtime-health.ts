/**
 * The container runtime's health as kubelet's runtimeState tracks it: CRI Status every 5 s; the
 * RuntimeReady and NetworkReady conditions it reports; "container runtime is down" once no
 * successful check happened for 2 minutes. Its errors make the Ready condition False with
 * kubelet's texts.
 */
import type { CriClient } from '../runtime/cri-client.js';
import type { RuntimeCondition } from '../../../proto/cri/v1/types.js';

/** kubelet's baseRuntimeSyncThreshold. */
const runtimeSyncThresholdMs = 2 * 60_000;

/** kubecontainer.RuntimeCondition's String(): "RuntimeReady=false reason:X message:Y". */
function conditionText(type: string, c: RuntimeCondition | undefined): string {
  if (!c) return '<nil>';
  return `${type}=${c.status === true} reason:${c.reason ?? ''} message:${c.message ?? ''}`;
}

/** Tracks the runtime's health from CRI Status calls. */
export class RuntimeHealth {
  private lastSyncMs = 0;
  private runtimeError: string | undefined;
  private networkError: string | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** One CRI Status check (kubelet's updateRuntimeUp); a failed call leaves the last state, so "down" follows after 2 minutes. */
  async check(cri: CriClient): Promise<void> {
    let conditions: RuntimeCondition[];
    try {
      const res = await cri.runtime.Status({});
      conditions = res.status?.conditions ?? [];
    } catch {
      return;
    }
    this.record(conditions);
  }

  /** Records a Status answer's conditions. */
  record(conditions: readonly RuntimeCondition[]): void {
    const runtime = conditions.find((c) => c.type === 'RuntimeReady');
    const network = conditions.find((c) => c.type === 'NetworkReady');
    this.networkError = network?.status === true ? undefined : `container runtime network not ready: ${conditionText('NetworkReady', network)}`;
    if (runtime?.status !== true) {
      this.runtimeError = `container runtime not ready: ${conditionText('RuntimeReady', runtime)}`;
      return;
    }
    this.runtimeError = undefined;
    this.lastSyncMs = this.now();
  }

  /** The errors that make the node NotReady, in kubelet's order (runtime, then network). */
  errors(): string[] {
    const errs: string[] = [];
    if (this.lastSyncMs === 0) {
      if (!this.runtimeError) errs.push('container runtime status check may not have completed yet');
    } else if (this.lastSyncMs + runtimeSyncThresholdMs <= this.now()) {
      errs.push('container runtime is down');
    }
    if (this.runtimeError) errs.push(this.runtimeError);
    if (this.networkError) errs.push(this.networkError);
    return errs;
  }
}
