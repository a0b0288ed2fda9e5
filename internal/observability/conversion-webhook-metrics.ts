/**
 * kube's custom resource conversion webhook metrics (apiextensions-apiserver's conversion
 * metrics.go, 1.33): the latency of each webhook conversion by CRD and versions
 * (apiserver_crd_conversion_webhook_duration_seconds), and the count and latency of webhook calls by
 * result and failure type. One set per registry, shared by every CRD's converter.
 */
import type { Registry } from 'prom-client';
import { CounterVec, HistogramVec } from './vectors.js';

/** kube's ConversionWebhookErrorType values this server reports. */
export type ConversionWebhookFailureType = 'conversion_webhook_call_failure' | 'conversion_webhook_malformed_response_failure';

/** Records conversions. Must not throw. */
export interface ConversionWebhookMetrics {
  /** One conversion of crdName's objects from fromVersion to toVersion finished (recorded only when they differ). */
  observeConversion(crdName: string, fromVersion: string, toVersion: string, succeeded: boolean, seconds: number): void;
  /** One webhook call succeeded. */
  observeWebhookSuccess(seconds: number): void;
  /** One webhook call failed. */
  observeWebhookFailure(type: ConversionWebhookFailureType, seconds: number): void;
}

const perRegistry = new WeakMap<Registry, ConversionWebhookMetrics>();

/** kube's ExponentialBuckets(0.001, 2, 15). */
const crdLatencyBuckets = Array.from({ length: 15 }, (_, i) => 0.001 * 2 ** i);

/** The conversion metric families of registry (created on first use). */
export function conversionWebhookMetrics(registry: Registry): ConversionWebhookMetrics {
  const existing = perRegistry.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const crdDuration = new HistogramVec({
    name: 'apiserver_crd_conversion_webhook_duration_seconds',
    help: 'CRD webhook conversion duration in seconds',
    labelNames: ['crd_name', 'from_version', 'to_version', 'succeeded'],
    buckets: crdLatencyBuckets,
    registers,
  });
  const requests = new CounterVec({
    name: 'apiserver_conversion_webhook_request_total',
    help: 'Counter for conversion webhook requests with success/failure and failure error type',
    labelNames: ['result', 'failure_type'],
    registers,
  });
  const latency = new HistogramVec({
    name: 'apiserver_conversion_webhook_duration_seconds',
    help: 'Conversion webhook request latency',
    labelNames: ['result', 'failure_type'],
    buckets: [0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 45, 60],
    registers,
  });
  const metrics: ConversionWebhookMetrics = {
    observeConversion(crdName, fromVersion, toVersion, succeeded, seconds) {
      if (fromVersion === toVersion) return;
      crdDuration.labels(crdName, fromVersion, toVersion, String(succeeded)).observe(seconds);
    },
    observeWebhookSuccess(seconds) {
      requests.labels('success', '').inc();
      latency.labels('success', '').observe(seconds);
    },
    observeWebhookFailure(type, seconds) {
      requests.labels('failure', type).inc();
      latency.labels('failure', type).observe(seconds);
    },
  };
  perRegistry.set(registry, metrics);
  return metrics;
}
