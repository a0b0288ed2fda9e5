/**
 * Flag groups: the flags of one concern (secure serving, authentication, authorization, encryption
 * at rest, ...) registered and validated together, each in a file of its own beside this one, as
 * kube-apiserver's options packages are cut. flags.ts registers every group listed here and merges
 * what each validates into ServerOptions.
 */
import type { Argv } from 'yargs';
import { admissionFlags } from './admission.js';
import { aggregatorFlags } from './aggregator.js';
import { auditFlags } from './audit.js';
import { authenticationWebhookFlags } from './authentication-webhook.js';
import { authenticationFlags } from './authentication.js';
import { authorizationFlags } from './authorization.js';
import { controllersFlags } from './controllers.js';
import { csrSigningFlags } from './csr-signing.js';
import { corsFlags } from './cors.js';
import { defaultTolerationSecondsFlags } from './default-toleration-seconds.js';
import { hstsFlags } from './hsts.js';
import { secureServingFlags } from './secure-serving.js';
import { http2Flags } from './http2.js';
import { oidcFlags } from './oidc.js';
import { serviceAccountFlags } from './service-account.js';
import { encryptionFlags } from './encryption.js';
import { etcdFlags } from './etcd.js';
import { tracingFlags } from './tracing.js';
import { healthCheckFlags } from './health-checks.js';
import { shutdownFlags } from './shutdown.js';
import { loggingFlags } from './logging.js';
import { profilingFlags } from './profiling.js';
import { metricsFlags } from './metrics.js';
import { endpointReconcilerFlags } from './endpoint-reconciler.js';
import { storageLeaseFlags } from './storage-leases.js';
import { serviceNetworkFlags } from './service-network.js';
import { eventFlags } from './event-ttl.js';
import { deleteCollectionFlags } from './delete-collection.js';
import { flowControlFlags } from './flow-control.js';
import { featureGateFlags } from './feature-gates.js';
import { runtimeConfigFlags } from './runtime-config.js';
import { kubeletClientFlags } from './kubelet-client.js';

/** One group of flags. */
export interface FlagGroup<K extends keyof FlagGroupOptions = keyof FlagGroupOptions> {
  /** Adds the group's options (kube's names, defaults and help texts) to the parser. */
  register(parser: Argv): void;
  /**
   * Flags that may be given several times, each occurrence adding to the list (pflag's slice and
   * array flags): flags.ts hands validate() every occurrence as a string[] under the flag's name.
   */
  readonly repeatable?: readonly string[];
  /** The group's validated options from the parsed flags; throws FlagError on an invalid value. */
  validate(parsed: Record<string, unknown>): Pick<FlagGroupOptions, K>;
}

/**
 * The options of every group, each under its own key. Each is optional in ServerOptions: an absent
 * group behaves as its flags' defaults.
 */
export interface FlagGroupOptions {}

/** Every group, in the order their flags appear in --help. */
export const flagGroups: readonly FlagGroup[] = [
  secureServingFlags,
  http2Flags,
  corsFlags,
  hstsFlags,
  authenticationFlags,
  serviceAccountFlags,
  oidcFlags,
  authenticationWebhookFlags,
  authorizationFlags,
  admissionFlags,
  aggregatorFlags,
  controllersFlags,
  csrSigningFlags,
  defaultTolerationSecondsFlags,
  auditFlags,
  etcdFlags,
  encryptionFlags,
  tracingFlags,
  healthCheckFlags,
  shutdownFlags,
  profilingFlags,
  loggingFlags,
  metricsFlags,
  endpointReconcilerFlags,
  storageLeaseFlags,
  serviceNetworkFlags,
  eventFlags,
  deleteCollectionFlags,
  flowControlFlags,
  featureGateFlags,
  runtimeConfigFlags,
  kubeletClientFlags,
];
