/**
 * --encryption-provider-config-automatic-reload (kube's DynamicEncryptionConfigContent): polls the
 * file (kube: every minute) and, when its content changed, loads it, waits for its KMS plugins
 * to be healthy, and swaps every resource's transformers at once. A file that does not load (or
 * whose plugins stay unhealthy) changes nothing: the error is logged, counted in
 * apiserver_encryption_config_controller_automatic_reloads_total{status="failure"}, and retried
 * with backoff. The previous build is closed after its grace period, so in-flight KMS calls end.
 */
import { errorMessage } from '../../storage/value/interface.js';
import type { ResourceTransformers } from '../../storage/value/resource-transformers.js';
import type { BuiltEncryption } from './build.js';
import { readConfigFile } from './decode.js';
import type { EncryptionMetrics } from './metrics.js';

/** What the reloader needs. */
export interface ReloaderDeps {
  readonly path: string;
  readonly transformers: ResourceTransformers;
  /** Loads the file (with reload=true validation). */
  readonly load: (path: string) => Promise<BuiltEncryption>;
  readonly metrics: EncryptionMetrics;
  readonly log: { info(m: string): void; error(m: string): void };
  /** How often the file is read (kube: 1 minute). */
  readonly pollIntervalMs: number;
  /** How long a new build's KMS plugins may take to turn healthy (kube: at least 10 s). */
  readonly minHealthWaitMs?: number;
}

/** The reload controller; current is the build in effect. */
export class EncryptionConfigReloader {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private failures = 0;
  private processing: Promise<void> | undefined;
  private readonly closeTimers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly deps: ReloaderDeps,
    private currentBuild: BuiltEncryption,
  ) {}

  /** The build in effect (its kms-providers check is the server's). */
  get current(): BuiltEncryption {
    return this.currentBuild;
  }

  /** Starts polling. */
  start(): void {
    this.schedule(this.deps.pollIntervalMs);
  }

  /** Stops polling and closes every build, the current one included. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const t of this.closeTimers) clearTimeout(t);
    this.closeTimers.clear();
    this.currentBuild.close();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.processOnce().then(() => {
        // After a failure, retry sooner (1 s doubling) than the poll, up to the poll interval.
        const retry = this.failures > 0 ? Math.min(1000 * 2 ** (this.failures - 1), this.deps.pollIntervalMs) : this.deps.pollIntervalMs;
        this.schedule(retry);
      });
    }, ms);
    this.timer.unref();
  }

  /** Reads the file once and applies it when it changed; never throws. */
  processOnce(): Promise<void> {
    this.processing ??= this.process().finally(() => {
      this.processing = undefined;
    });
    return this.processing;
  }

  private async process(): Promise<void> {
    let built: BuiltEncryption | undefined;
    try {
      if (readConfigFile(this.deps.path).hash === this.currentBuild.hash) {
        this.failures = 0;
        return;
      }
      built = await this.deps.load(this.deps.path);
      if (built.hash === this.currentBuild.hash || this.stopped) {
        built.close();
        return;
      }
      await this.waitHealthy(built);
    } catch (err) {
      built?.close();
      this.failures++;
      this.deps.metrics.reloadFailed();
      this.deps.log.error(`error processing encryption config file ${this.deps.path}: ${errorMessage(err)}`);
      return;
    }
    const old = this.currentBuild;
    this.currentBuild = built;
    this.deps.transformers.set(built.rules);
    this.failures = 0;
    this.deps.metrics.reloadSucceeded(built.hash);
    this.deps.log.info(`Loaded new kms encryption config content name=encryption-provider-config-automatic-reload-controller`);
    const t = setTimeout(() => {
      this.closeTimers.delete(t);
      old.close();
    }, old.closeGracePeriodMs);
    t.unref();
    this.closeTimers.add(t);
  }

  private async waitHealthy(built: BuiltEncryption): Promise<void> {
    if (!built.kmsUsed) return;
    const waitMs = Math.max(built.closeGracePeriodMs, this.deps.minHealthWaitMs ?? 10_000);
    const deadline = Date.now() + waitMs;
    let last: unknown;
    for (;;) {
      try {
        await built.kmsCheck.check();
        return;
      } catch (err) {
        last = err;
      }
      if (Date.now() >= deadline || this.stopped) break;
      await new Promise((r) => setTimeout(r, 100).unref());
    }
    throw new Error(`health check for new transformers failed, polling error context deadline exceeded: ${errorMessage(last)}`);
  }
}
