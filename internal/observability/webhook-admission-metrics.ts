/**
 * kube's admission webhook metrics (k8s.io/apiserver/pkg/admission/metrics, 1.33): each webhook
 * call's latency and count by name, type ("admit" for mutating, "validating"), operation, code and
 * whether it rejected; rejections by error type; webhooks that failed open. One set per registry,
 * shared by the mutating and validating plugins.
 */
import type { Registry } from 'prom-client';
import { CounterVec, HistogramVec } from './vectors.js';

/** Why a webhook rejected (kube's WebhookRejectionErrorType). */
export type WebhookRejectionErrorType = 'calling_webhook_error' | 'apiserver_internal_error' | 'no_error';

/** Records webhook calls. Must not throw. */
export interface WebhookAdmissionMetrics {
  /** One call finished: code is the answer's HTTP code (0 when there was none). */
  observeWebhook(name: string, type: string, operation: string, rejected: boolean, code: number, seconds: number): void;
  observeRejection(name: string, type: string, operation: string, errorType: WebhookRejectionErrorType, code: number): void;
  observeFailOpen(name: string, type: string): void;
}

const perRegistry = new WeakMap<Registry, WebhookAdmissionMetrics>();

/** The webhook metric families of registry (created on first use). */
export function webhookAdmissionMetrics(registry: Registry): WebhookAdmissionMetrics {
  const existing = perRegistry.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const latency = new HistogramVec({
    name: 'apiserver_admission_webhook_admission_duration_seconds',
    help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    labelNames: ['name', 'type', 'operation', 'rejected'],
    buckets: [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25],
    registers,
  });
  const rejections = new CounterVec({
    name: 'apiserver_admission_webhook_rejection_count',
    help: 'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
    labelNames: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
    registers,
  });
  const failOpen = new CounterVec({
    name: 'apiserver_admission_webhook_fail_open_count',
    help: 'Admission webhook fail open count, identified by name and broken out for each admission type (validating or mutating).',
    labelNames: ['name', 'type'],
    registers,
  });
  const requests = new CounterVec({
    name: 'apiserver_admission_webhook_request_total',
    help: 'Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
    labelNames: ['name', 'type', 'operation', 'code', 'rejected'],
    registers,
  });
  const metrics: WebhookAdmissionMetrics = {
    observeWebhook(name, type, operation, rejected, code, seconds) {
      requests.labels(name, type, operation, String(Math.min(code, 600)), String(rejected)).inc();
      latency.labels(name, type, operation, String(rejected)).observe(seconds);
    },
    observeRejection(name, type, operation, errorType, code) {
      rejections.labels(name, type, operation, errorType, String(Math.min(code, 600))).inc();
    },
    observeFailOpen(name, type) {
      failOpen.labels(name, type).inc();
    },
  };
  perRegistry.set(registry, metrics);
  return metrics;
}
