/**
 * One probe of one container (kubelet's prober worker): waits a random part of the period when
 * the agent has just started (so probes after a restart spread out), then probes every
 * periodSeconds: not before initialDelaySeconds after the container started, liveness and
 * readiness only once the startup probe succeeded, startup no more after that. Results count
 * toward successThreshold/failureThreshold before they change; a liveness or startup failure puts
 * the worker on hold until the container is replaced. Failed attempts record Unhealthy events
 * with kubelet's texts; attempts that could not run are retried up to three times and then
 * thrown away, as kubelet does.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { EventRecorder } from '../interface.js';
import type { CriClient } from '../runtime/cri-client.js';
import { probeTypeName, type ProbeOutcome, type ProbeType } from './interface.js';
import { runProbe } from './run-probe.js';
import { containerFieldPath } from '../events/field-path.js';

type Json = Record<string, any>;

const maxProbeRetries = 3;

/** What a worker reads and reports to its manager. */
export interface WorkerDeps {
  readonly cri?: CriClient;
  readonly events: EventRecorder;
  /** When the probe manager started (ms), for the initial jitter. */
  readonly managerStartMs: number;
  isStarted(): boolean;
  podIP(): Promise<string>;
  /** A result passed its threshold (success or failure). */
  setResult(type: ProbeType, success: boolean): void;
}

/** The container instance a worker probes. */
export interface ContainerInstance {
  readonly pod: KubeObject;
  readonly container: Json;
  readonly containerId: string;
  readonly startedAtMs: number;
}

/** A running probe worker. */
export class ProbeWorker {
  private lastResult: boolean | undefined;
  private resultRun = 0;
  private onHold = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly periodMs: number;

  constructor(
    readonly type: ProbeType,
    private readonly spec: Json,
    private instance: ContainerInstance,
    private readonly deps: WorkerDeps,
  ) {
    this.periodMs = Math.max(1, Number(spec.periodSeconds ?? 10)) * 1000;
    const sinceStart = Date.now() - deps.managerStartMs;
    this.schedule(this.periodMs > sinceStart ? Math.random() * this.periodMs : 0);
  }

  /** The container was replaced: probe the new one (results start over, hold lifted). */
  replace(instance: ContainerInstance): void {
    this.instance = instance;
    this.onHold = false;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    const began = Date.now();
    const keepGoing = await this.doProbe().catch(() => true);
    if (keepGoing) this.schedule(Math.max(0, this.periodMs - (Date.now() - began)));
  }

  private async doProbe(): Promise<boolean> {
    if (this.stopped || this.onHold) return !this.stopped;
    const { pod, container, containerId, startedAtMs } = this.instance;
    // A terminating pod is no longer checked for liveness or startup.
    if (pod.metadata.deletionTimestamp && this.type !== 'readiness') return false;
    if (Math.floor((Date.now() - startedAtMs) / 1000) < Number(this.spec.initialDelaySeconds ?? 0)) return true;
    const started = this.deps.isStarted();
    if (started && this.type === 'startup') return true;
    if (!started && this.type !== 'startup') return true;

    const target = { pod, container, containerId, podIP: await this.deps.podIP() };
    let outcome: ProbeOutcome = await runProbe(this.spec, target, this.deps.cri);
    for (let i = 1; i < maxProbeRetries && outcome.error; i++) outcome = await runProbe(this.spec, target, this.deps.cri);
    if (this.stopped || containerId !== this.instance.containerId) return !this.stopped;
    const name = probeTypeName(this.type);
    const fieldPath = containerFieldPath(pod, String(container.name ?? ''));
    if (outcome.error || outcome.result === 'unknown') {
      this.deps.events.event(pod, 'Warning', 'Unhealthy', `${name} probe errored and resulted in unknown state: ${outcome.error?.message ?? ''}`, fieldPath);
      // kubelet throws a probe error away; an unknown result without one counts as a failure.
      if (outcome.error) return true;
    } else if (outcome.result === 'failure') {
      this.deps.events.event(pod, 'Warning', 'Unhealthy', `${name} probe failed: ${outcome.output}`, fieldPath);
    } else if (outcome.result === 'warning') {
      this.deps.events.event(pod, 'Warning', 'ProbeWarning', `${name} probe warning: ${outcome.output}`, fieldPath);
    }
    const success = outcome.result === 'success' || outcome.result === 'warning';
    if (this.lastResult === success) this.resultRun++;
    else {
      this.lastResult = success;
      this.resultRun = 1;
    }
    const threshold = success ? Number(this.spec.successThreshold ?? 1) : Number(this.spec.failureThreshold ?? 3);
    if (this.resultRun < threshold) return true;
    this.deps.setResult(this.type, success);
    if (!success && this.type !== 'readiness') {
      this.onHold = true;
      this.resultRun = 0;
    }
    return true;
  }
}
