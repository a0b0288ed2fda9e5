/**
 * Which check goes on which endpoint, as kube-apiserver's genericapiserver decides: generic checks
 * (ping, log, etcd) on all three; boot-sequence checks (post-start hooks) on all three, /livez
 * passing them during --livez-grace-period; readiness-only checks (etcd-readiness, informer-sync,
 * shutdown) on /readyz; KMS checks on /healthz and /readyz but never /livez.
 */
import type { HealthCheck, HealthEndpoints } from '../health.js';
import { delayedLivezCheck } from './checks.js';

/** Collects the checks of one server; endpoints() gives the lists in the order they were added. */
export class HealthRegistry {
  private readonly healthz: HealthCheck[] = [];
  private readonly livez: HealthCheck[] = [];
  private readonly readyz: HealthCheck[] = [];

  constructor(
    /** --livez-grace-period. */
    private readonly livezGracePeriodMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** kube's AddHealthChecks: every endpoint, no grace on /livez. */
  addHealthChecks(...checks: HealthCheck[]): this {
    this.healthz.push(...checks);
    this.livez.push(...checks);
    this.readyz.push(...checks);
    return this;
  }

  /** kube's AddBootSequenceHealthChecks: every endpoint, /livez passing them until the grace period from now ends. */
  addBootSequenceHealthChecks(...checks: HealthCheck[]): this {
    this.healthz.push(...checks);
    const grace = this.livezGracePeriodMs;
    this.livez.push(...(grace > 0 ? checks.map((c) => delayedLivezCheck(c, grace, this.now)) : checks));
    this.readyz.push(...checks);
    return this;
  }

  /** kube's AddReadyzChecks: /readyz only. */
  addReadyzChecks(...checks: HealthCheck[]): this {
    this.readyz.push(...checks);
    return this;
  }

  /** kube's addHealthChecksWithoutLivez (the KMS checks): /healthz and /readyz. */
  addHealthChecksWithoutLivez(...checks: HealthCheck[]): this {
    this.healthz.push(...checks);
    this.readyz.push(...checks);
    return this;
  }

  /** The endpoints' lists (live: checks added later appear). */
  endpoints(): HealthEndpoints {
    return { healthz: this.healthz, livez: this.livez, readyz: this.readyz };
  }
}
