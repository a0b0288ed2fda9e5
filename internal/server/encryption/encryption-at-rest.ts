/**
 * Encryption at rest for the server (kube's EtcdOptions with --encryption-provider-config): loads
 * the file, hands each resource its transformer through ResourceTransformers, and names the
 * health checks kube adds: "kms-providers" (when KMS v2 providers are configured, or always with
 * automatic reload) and the reload controller's post-start hook.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../observability/logging.js';
import type { ServerMetrics } from '../../observability/metrics.js';
import { ResourceTransformers } from '../../storage/value/resource-transformers.js';
import type { HealthCheck } from '../health.js';
import type { EncryptionOptions } from '../options/encryption.js';
import { loadEncryptionConfig, type BuildDeps } from './build.js';
import { createEncryptionMetrics } from './metrics.js';
import { EncryptionConfigReloader } from './reload.js';

/** Encryption at rest as the server runs it. */
export interface EncryptionAtRest {
  /** Each resource's transformer (for the etcd3 store). */
  readonly transformers: ResourceTransformers;
  /** Checks for /healthz and /readyz (kube keeps the KMS checks off /livez). */
  readonly healthChecks: readonly HealthCheck[];
  /** Stops the reload controller and KMS probes and closes the plugin connections. */
  stop(): void;
}

/** What starting needs from the server. */
export interface EncryptionDeps {
  readonly log: Logger;
  readonly metrics: ServerMetrics;
  /** Injected KMS plugin clients (tests); gRPC otherwise. */
  readonly kmsService?: BuildDeps['kmsService'];
  /** The KMSv1 gate (kube 1.33: off). */
  readonly kmsV1?: boolean;
}

/**
 * Loads --encryption-provider-config; resolves undefined without it. Rejects with kube's message
 * when the file is invalid, so the server does not start.
 */
export async function startEncryptionAtRest(options: EncryptionOptions | undefined, deps: EncryptionDeps): Promise<EncryptionAtRest | undefined> {
  const path = options?.providerConfigFile;
  if (!path) return undefined;
  const reload = options.automaticReload;
  const buildDeps: BuildDeps = {
    log: (m) => deps.log.v(2, m),
    ...(options.tuning?.kms ? { kmsTimings: options.tuning.kms } : {}),
    ...(deps.kmsService ? { kmsService: deps.kmsService } : {}),
    ...(deps.kmsV1 ? { kmsV1: true } : {}),
  };
  const built = await loadEncryptionConfig(path, reload, buildDeps);
  const transformers = new ResourceTransformers(built.rules);
  const kmsCheck = (check: () => Promise<void>): HealthCheck => ({ name: 'kms-providers', check });

  if (!reload) {
    return {
      transformers,
      // kube names one check for all KMS v2 providers; without KMS there is none.
      healthChecks: built.kmsUsed ? [kmsCheck(() => built.kmsCheck.check())] : [],
      stop: () => built.close(),
    };
  }

  const metrics = createEncryptionMetrics(deps.metrics.registry, `apiserver-${randomUUID()}`);
  metrics.configLoaded(built.hash);
  const reloader = new EncryptionConfigReloader(
    {
      path,
      transformers,
      load: (p) => loadEncryptionConfig(p, true, buildDeps),
      metrics,
      log: { info: (m) => deps.log.info(m), error: (m) => deps.log.error(m) },
      pollIntervalMs: options.tuning?.reloadPollIntervalMs ?? 60_000,
      ...(options.tuning?.minHealthWaitMs !== undefined ? { minHealthWaitMs: options.tuning.minHealthWaitMs } : {}),
    },
    built,
  );
  reloader.start();
  return {
    transformers,
    healthChecks: [
      // With reload, one check always exists and follows whichever build is in effect.
      kmsCheck(() => reloader.current.kmsCheck.check()),
      { name: 'poststarthook/start-encryption-provider-config-automatic-reload', check: () => undefined },
    ],
    stop: () => reloader.stop(),
  };
}
