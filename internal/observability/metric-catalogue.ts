/**
 * What kube-apiserver 1.33 says about its metrics beyond name, labels and help: each metric's
 * stability level (printed as "[STABLE] " before its help) and, for deprecated ones, the version
 * that deprecated it (printed as "(Deprecated since 1.28.0) "; deprecated before this minor
 * version means hidden unless --show-hidden-metrics-for-version). The registry applies this to
 * every metric registered on it, whoever made it.
 */

/** The Kubernetes version whose metric lifecycle the server follows. */
export const metricsKubeVersion = { major: 1, minor: 33 } as const;

/** component-base's stability levels. */
export type StabilityLevel = 'INTERNAL' | 'ALPHA' | 'BETA' | 'STABLE';

/** A metric's lifecycle. */
export interface MetricLifecycle {
  readonly stability: StabilityLevel;
  /** "1.28.0": the version that deprecated it. */
  readonly deprecatedVersion?: string;
}

const stable: MetricLifecycle = { stability: 'STABLE' };
const beta: MetricLifecycle = { stability: 'BETA' };
const alpha: MetricLifecycle = { stability: 'ALPHA' };

/** Metrics whose level is not ALPHA, or which are deprecated. */
const lifecycles: ReadonlyMap<string, MetricLifecycle> = new Map<string, MetricLifecycle>([
  ['apiserver_request_total', stable],
  ['apiserver_request_duration_seconds', stable],
  ['apiserver_response_sizes', stable],
  ['apiserver_current_inflight_requests', stable],
  ['apiserver_longrunning_requests', stable],
  ['apiserver_requested_deprecated_apis', stable],
  ['apiserver_storage_objects', stable],
  ['apiserver_storage_size_bytes', stable],
  ['apiserver_admission_step_admission_duration_seconds', stable],
  ['apiserver_admission_controller_admission_duration_seconds', stable],
  ['apiserver_admission_webhook_admission_duration_seconds', stable],
  ['apiserver_storage_db_total_size_in_bytes', { stability: 'ALPHA', deprecatedVersion: '1.28.0' }],
  ['apiserver_encryption_config_controller_automatic_reload_success_total', { stability: 'ALPHA', deprecatedVersion: '1.30.0' }],
  ['apiserver_encryption_config_controller_automatic_reload_failure_total', { stability: 'ALPHA', deprecatedVersion: '1.30.0' }],
  ['apiserver_validating_admission_policy_check_total', beta],
  ['apiserver_validating_admission_policy_check_duration_seconds', beta],
  // API Priority and Fairness (k8s.io/apiserver/pkg/util/flowcontrol/metrics); the rest of apiserver_flowcontrol_* is ALPHA.
  ['apiserver_flowcontrol_rejected_requests_total', beta],
  ['apiserver_flowcontrol_dispatched_requests_total', beta],
  ['apiserver_flowcontrol_current_inqueue_requests', beta],
  ['apiserver_flowcontrol_current_executing_requests', beta],
  ['apiserver_flowcontrol_current_executing_seats', beta],
  ['apiserver_flowcontrol_request_wait_duration_seconds', beta],
  ['apiserver_flowcontrol_nominal_limit_seats', beta],
  ['apiserver_flowcontrol_request_concurrency_limit', { stability: 'ALPHA', deprecatedVersion: '1.30.0' }],
  ['apiserver_flowcontrol_request_concurrency_in_use', { stability: 'ALPHA', deprecatedVersion: '1.31.0' }],
  ['registered_metrics_total', beta],
  ['disabled_metrics_total', beta],
  ['hidden_metrics_total', beta],
]);

/**
 * Metrics of the runtime (process_*, and Node's own nodejs_*), which kube's Go client also exports
 * without a stability level (its process_* and go_* collectors).
 */
function isRuntimeMetric(name: string): boolean {
  return name.startsWith('process_') || name.startsWith('nodejs_');
}

/** The lifecycle of a metric: its entry, none for runtime metrics, ALPHA otherwise (component-base's default). */
export function lifecycleOf(name: string): MetricLifecycle | undefined {
  return lifecycles.get(name) ?? (isRuntimeMetric(name) ? undefined : alpha);
}

function parseVersion(v: string): [number, number, number] {
  const [major = 0, minor = 0, patch = 0] = v.split('.').map(Number);
  return [major, minor, patch];
}

/** True when deprecatedVersion <= the current version (the help says so). */
export function isDeprecated(deprecatedVersion: string): boolean {
  const [major, minor] = parseVersion(deprecatedVersion);
  return major < metricsKubeVersion.major || (major === metricsKubeVersion.major && minor <= metricsKubeVersion.minor);
}

/** True when deprecated before the current minor version (kube's shouldHide). */
export function isHidden(deprecatedVersion: string): boolean {
  const [major, minor] = parseVersion(deprecatedVersion);
  return major < metricsKubeVersion.major || (major === metricsKubeVersion.major && minor < metricsKubeVersion.minor);
}

/** The only value --show-hidden-metrics-for-version accepts: the previous minor version. */
export function previousMinorVersion(): string {
  return `${metricsKubeVersion.major}.${metricsKubeVersion.minor - 1}`;
}
