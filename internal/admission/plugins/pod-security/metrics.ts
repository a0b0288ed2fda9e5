/**
 * PodSecurity's metrics as kube names them: pod_security_evaluations_total,
 * pod_security_exemptions_total and pod_security_errors_total, labelled by request operation,
 * resource (pod, namespace, or controller for any pod template) and subresource.
 */
import { Counter, type Registry } from 'prom-client';
import { latestVersion, versionString, type LevelVersion } from './api.js';

/** What a metric needs of a request. */
export interface MetricAttributes {
  readonly operation: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
}

/** Records evaluations, exemptions and errors. Never throws. */
export interface PodSecurityRecorder {
  recordEvaluation(decision: 'allow' | 'deny', policy: LevelVersion, mode: 'enforce' | 'audit' | 'warn', attrs: MetricAttributes): void;
  recordExemption(attrs: MetricAttributes): void;
  recordError(fatal: boolean, attrs: MetricAttributes): void;
}

function resourceLabel(a: MetricAttributes): string {
  if (a.group === '' && a.resource === 'pods') return 'pod';
  if (a.group === '' && a.resource === 'namespaces') return 'namespace';
  return 'controller';
}

function counter<T extends string>(registry: Registry, name: string, help: string, labelNames: readonly T[]): Counter<T> {
  const existing = registry.getSingleMetric(name) as Counter<T> | undefined;
  return existing ?? new Counter({ name, help, labelNames, registers: [registry] });
}

/** The recorder of one server, its counters on registry. apiMinor is the server's minor version. */
export function createPodSecurityRecorder(registry: Registry, apiMinor: number): PodSecurityRecorder {
  const evaluations = counter(registry, 'pod_security_evaluations_total', 'Number of policy evaluations that occurred, not counting ignored or exempt requests.', [
    'decision',
    'policy_level',
    'policy_version',
    'mode',
    'request_operation',
    'resource',
    'subresource',
  ]);
  const exemptions = counter(registry, 'pod_security_exemptions_total', 'Number of exempt requests, not counting ignored or out of scope requests.', [
    'request_operation',
    'resource',
    'subresource',
  ]);
  const errors = counter(
    registry,
    'pod_security_errors_total',
    'Number of errors preventing normal evaluation. Non-fatal errors may result in the latest restricted profile being used for evaluation.',
    ['fatal', 'request_operation', 'resource', 'subresource'],
  );
  return {
    recordEvaluation(decision, policy, mode, attrs) {
      // Privileged has no versions; a version past the server's own reads "future".
      const version =
        policy.version === latestVersion || policy.level === 'privileged' ? 'latest' : policy.version <= apiMinor ? versionString(policy.version) : 'future';
      evaluations.inc({
        decision,
        policy_level: policy.level,
        policy_version: version,
        mode,
        request_operation: attrs.operation.toLowerCase(),
        resource: resourceLabel(attrs),
        subresource: attrs.subresource,
      });
    },
    recordExemption(attrs) {
      exemptions.inc({ request_operation: attrs.operation.toLowerCase(), resource: resourceLabel(attrs), subresource: attrs.subresource });
    },
    recordError(fatal, attrs) {
      errors.inc({ fatal: String(fatal), request_operation: attrs.operation.toLowerCase(), resource: resourceLabel(attrs), subresource: attrs.subresource });
    },
  };
}
