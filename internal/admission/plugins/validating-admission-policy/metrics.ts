/**
 * kube's ValidatingAdmissionPolicy metrics: apiserver_validating_admission_policy_check_total and
 * apiserver_validating_admission_policy_check_duration_seconds, by policy, binding, error type and
 * enforcement action (allow, deny, warn, audit).
 */
import type { Registry } from 'prom-client';
import { CounterVec, HistogramVec } from '../../../observability/vectors.js';

/** The enforcement actions kube labels checks with. */
export type EnforcementAction = 'allow' | 'deny' | 'warn' | 'audit';

/** Records checks. */
export interface PolicyMetrics {
  observe(policy: string, binding: string, errorType: string, action: EnforcementAction, seconds: number): void;
}

const registered = new WeakMap<Registry, PolicyMetrics>();

/** The metric families on registry (created once per registry). */
export function policyMetrics(registry: Registry): PolicyMetrics {
  const existing = registered.get(registry);
  if (existing) return existing;
  const labelNames = ['policy', 'policy_binding', 'error_type', 'enforcement_action'];
  const check = new CounterVec({
    name: 'apiserver_validating_admission_policy_check_total',
    help: 'Validation admission policy check total, labeled by policy and further identified by binding and enforcement action taken.',
    labelNames,
    registers: [registry],
  });
  const latency = new HistogramVec({
    name: 'apiserver_validating_admission_policy_check_duration_seconds',
    help: 'Validation admission latency for individual validation expressions in seconds, labeled by policy and further including binding and enforcement action taken.',
    labelNames,
    buckets: [0.0000005, 0.001, 0.01, 0.1, 1.0],
    registers: [registry],
  });
  const m: PolicyMetrics = {
    observe(policy, binding, errorType, action, seconds) {
      check.labels(policy, binding, errorType, action).inc();
      latency.labels(policy, binding, errorType, action).observe(seconds);
    },
  };
  registered.set(registry, m);
  return m;
}
