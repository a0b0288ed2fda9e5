/**
 * The API server's own health checks, in kube-apiserver's lists: ping, log and etcd on every
 * endpoint; etcd-readiness, informer-sync and shutdown on readyz only; KMS checks never on livez;
 * the post-start hooks everywhere, livez passing them during --livez-grace-period.
 */
import type { EtcdHealthProbe } from '../../storage/etcd3/health-check.js';
import type { HealthCheck, HealthEndpoints } from '../health.js';
import type { LifecycleSignal } from '../lifecycle/signals.js';
import type { HealthCheckOptions } from '../options/health-checks.js';
import { pingCheck, postStartHookCheck, shutdownCheck } from './checks.js';
import { logCheck } from './log-check.js';
import { HealthRegistry } from './registry.js';

/** What the checks look at; each function is read at every check. */
export interface ServerHealthState {
  readonly options: HealthCheckOptions;
  readonly etcd: EtcdHealthProbe;
  /** Encryption at rest's checks (kms-providers, its reload hook); empty without it. */
  readonly encryptionChecks: readonly HealthCheck[];
  /** The authorizers' informers (RBAC's, the Node graph's) have loaded their first lists. */
  readonly authorizationSynced: () => boolean;
  readonly systemNamespacesReady: () => boolean;
  readonly bootstrapReady: () => boolean;
  /** RBAC's bootstrap roles reconciled since this start; absent when RBAC is not served. */
  readonly rbacBootstrapped?: () => boolean;
  /** Priority and fairness's post-start hooks (the generic server's: listed before the apiextensions ones, as kube lists them). */
  readonly flowControlHooks?: ReadonlyArray<{ readonly name: string; readonly done: () => boolean }>;
  /** The apiextensions server's post-start hooks (kube's aggregated chain runs them before kube-apiserver's own). */
  readonly apiextensionsHooks?: ReadonlyArray<{ readonly name: string; readonly done: () => boolean }>;
  /** The in-server controllers that are post-start hooks: name and whether done. */
  readonly controllerHooks?: ReadonlyArray<{ readonly name: string; readonly done: () => boolean }>;
  /** The aggregator's boot sequence checks (its post-start hook, autoregister-completion). */
  readonly aggregatorChecks?: readonly HealthCheck[];
  readonly shutdownInitiated: LifecycleSignal;
}

/** readyz's informer-sync. */
function informerSyncCheck(synced: () => boolean): HealthCheck {
  return {
    name: 'informer-sync',
    check: () => {
      if (!synced()) throw new Error('authorization informers not synced');
    },
  };
}

/** The three endpoints' check lists. */
export function serverHealthEndpoints(s: ServerHealthState): HealthEndpoints {
  const isPostStartHook = (c: HealthCheck): boolean => c.name.startsWith('poststarthook/');
  const rbacBootstrapped = s.rbacBootstrapped;
  return new HealthRegistry(s.options.livezGracePeriodMs)
    .addHealthChecks(pingCheck, logCheck, { name: 'etcd', check: s.etcd.check(s.options.etcdHealthcheckTimeoutMs) })
    .addReadyzChecks({ name: 'etcd-readiness', check: s.etcd.check(s.options.etcdReadycheckTimeoutMs) })
    .addHealthChecksWithoutLivez(...s.encryptionChecks.filter((c) => !isPostStartHook(c)))
    .addReadyzChecks(informerSyncCheck(s.authorizationSynced))
    .addBootSequenceHealthChecks(
      ...s.encryptionChecks.filter(isPostStartHook),
      ...(s.flowControlHooks ?? []).map((h) => postStartHookCheck(h.name, h.done)),
      ...(s.apiextensionsHooks ?? []).map((h) => postStartHookCheck(h.name, h.done)),
      postStartHookCheck('start-system-namespaces-controller', s.systemNamespacesReady),
      postStartHookCheck('bootstrap-controller', s.bootstrapReady),
      ...(rbacBootstrapped ? [postStartHookCheck('rbac/bootstrap-roles', rbacBootstrapped)] : []),
      ...(s.controllerHooks ?? []).map((h) => postStartHookCheck(h.name, h.done)),
      ...(s.aggregatorChecks ?? []),
    )
    .addReadyzChecks(shutdownCheck(s.shutdownInitiated))
    .endpoints();
}
