/**
 * Prometheus metrics (prom-client), one registry per server so that servers started side by side
 * (tests) do not share counters. Names follow kube-apiserver's where kube has the metric. The
 * registry (kube-registry.ts) applies the metric flags to every metric registered on it; the
 * request, storage and admission families live in files of their own.
 */
import { Counter, Gauge, Histogram, collectDefaultMetrics, exponentialBuckets } from 'prom-client';
import { createAdmissionMetrics, type AdmissionMetrics } from './admission-metrics.js';
import { KubeRegistry, type MetricRules } from './kube-registry.js';
import { createRequestMetrics, type RequestMetrics } from './request-metrics.js';
import { createStorageMetrics, type StorageMetrics } from './storage-metrics.js';

/** The metrics one server keeps. */
export interface ServerMetrics {
  readonly registry: KubeRegistry;
  /** apiserver_request_*, apiserver_response_sizes, in-flight, long-running and watch event metrics. */
  readonly requests: RequestMetrics;
  /** etcd_request_* and apiserver_storage_* metrics. */
  readonly storage: StorageMetrics;
  /** apiserver_admission_step_* and apiserver_admission_controller_* metrics. */
  readonly admission: AdmissionMetrics;
  /** apiserver_terminated_watchers_total: watchers ended because they could not keep up. */
  readonly terminatedWatchers: Counter<'resource'>;
  /** apiserver_watch_cache_events_dispatched_total: events the watch cache sent to watchers. */
  readonly watchCacheEventsDispatched: Counter<'resource'>;
  /** apiserver_watch_cache_events_received_total: events the watch cache received from etcd. */
  readonly watchCacheEventsReceived: Counter<'resource'>;
  /** apiserver_watch_cache_initializations_total: lists that (re)filled a watch cache. */
  readonly watchCacheInitializations: Counter<'resource'>;
  /** apiserver_watch_cache_resource_version: the revision a watch cache has reached. */
  readonly watchCacheResourceVersion: Gauge<'resource'>;
  /** watch_cache_capacity (kube names it without the apiserver_ prefix): how many events a watch cache keeps for watchers that resume. */
  readonly watchCacheCapacity: Gauge<'resource'>;
  /** authorization_attempts_total: the authorization filter's answers (allowed, denied, no-opinion, error). */
  readonly authorizationAttempts: Counter<'result'>;
  /** authorization_duration_seconds: how long the filter's authorizer took, by result. */
  readonly authorizationDuration: Histogram<'result'>;
  /** apiserver_authorization_decisions_total: terminal decisions (allowed, denied) by authorizer type and name. */
  readonly authorizationDecisions: Counter<'type' | 'name' | 'decision'>;
  /** apiserver_authorization_webhook_evaluations_total: round-trips to an authorization webhook by result (success, error, timeout, canceled). */
  readonly authorizationWebhookEvaluations: Counter<'name' | 'result'>;
  /** apiserver_authorization_webhook_duration_seconds: latency of those round-trips. */
  readonly authorizationWebhookDuration: Histogram<'name' | 'result'>;
  /** apiserver_authorization_webhook_evaluations_fail_open_total: NoOpinion answers because a webhook failed or timed out. */
  readonly authorizationWebhookFailOpen: Counter<'name' | 'result'>;
  /** authenticated_user_requests: authenticated requests by username category (authentication-metrics.ts). */
  readonly authenticatedUserRequests: Counter<'username'>;
  /** authentication_attempts: authentication outcomes (success, failure: no user, error: bad credential). */
  readonly authenticationAttempts: Counter<'result'>;
  /** authentication_duration_seconds: how long authentication took, by outcome. */
  readonly authenticationDuration: Histogram<'result'>;
  /** serviceaccount_*_total: uses of service account tokens by kind (kube's pkg/serviceaccount metrics). */
  readonly serviceAccountTokens: ServiceAccountTokenCounters;
  /** Text for GET /metrics. */
  text(): Promise<string>;
  /** Stops the metrics' timers (the in-flight watermark); call when the server stops. */
  stop(): void;
}

/** Counters of service account token uses, as kube's pkg/serviceaccount counts them. */
export interface ServiceAccountTokenCounters {
  /** serviceaccount_legacy_tokens_total: Secret-based tokens used. */
  readonly legacy: Counter;
  /** serviceaccount_legacy_auto_token_uses_total: auto-generated ones (listed in their account's secrets). */
  readonly legacyAuto: Counter;
  /** serviceaccount_legacy_manual_token_uses_total: manually created ones. */
  readonly legacyManual: Counter;
  /** serviceaccount_invalid_legacy_auto_token_uses_total: ones marked invalid (kubernetes.io/legacy-token-invalid-since). */
  readonly invalidLegacyAuto: Counter;
  /** serviceaccount_stale_tokens_total: bound tokens used past their warnafter time. */
  readonly stale: Counter;
  /** serviceaccount_valid_tokens_total: bound tokens with a warnafter time used before it. */
  readonly valid: Counter;
}

/**
 * Creates a server's metrics under rules (the metric flags), with the process and Node.js defaults
 * (CPU, RSS, open fds, start time, heap, event loop lag).
 */
export function createMetrics(rules: MetricRules = {}): ServerMetrics {
  const registry = new KubeRegistry(rules);
  collectDefaultMetrics({ register: registry });
  const opts = { registers: [registry] };
  const requests = createRequestMetrics(registry);
  return {
    registry,
    requests,
    storage: createStorageMetrics(registry),
    admission: createAdmissionMetrics(registry),
    terminatedWatchers: new Counter({ name: 'apiserver_terminated_watchers_total', help: 'Counter of watchers closed due to unresponsiveness broken by resource type.', labelNames: ['resource'], ...opts }),
    watchCacheEventsDispatched: new Counter({ name: 'apiserver_watch_cache_events_dispatched_total', help: 'Counter of events dispatched in watch cache broken by resource type.', labelNames: ['resource'], ...opts }),
    watchCacheEventsReceived: new Counter({ name: 'apiserver_watch_cache_events_received_total', help: 'Counter of events received in watch cache broken by resource type.', labelNames: ['resource'], ...opts }),
    watchCacheInitializations: new Counter({ name: 'apiserver_watch_cache_initializations_total', help: 'Counter of watch cache initializations broken by resource type.', labelNames: ['resource'], ...opts }),
    watchCacheResourceVersion: new Gauge({ name: 'apiserver_watch_cache_resource_version', help: 'Current resource version of watch cache broken by resource type.', labelNames: ['resource'], ...opts }),
    watchCacheCapacity: new Gauge({ name: 'watch_cache_capacity', help: 'Total capacity of watch cache broken by resource type.', labelNames: ['resource'], ...opts }),
    authorizationAttempts: new Counter({
      name: 'authorization_attempts_total',
      help: "Counter of authorization attempts broken down by result. It can be either 'allowed', 'denied', 'no-opinion' or 'error'.",
      labelNames: ['result'],
      ...opts,
    }),
    authorizationDuration: new Histogram({
      name: 'authorization_duration_seconds',
      help: 'Authorization duration in seconds broken out by result.',
      labelNames: ['result'],
      buckets: exponentialBuckets(0.001, 2, 15),
      ...opts,
    }),
    authenticatedUserRequests: new Counter({ name: 'authenticated_user_requests', help: 'Counter of authenticated requests broken out by username.', labelNames: ['username'], ...opts }),
    authenticationAttempts: new Counter({ name: 'authentication_attempts', help: 'Counter of authenticated attempts.', labelNames: ['result'], ...opts }),
    authenticationDuration: new Histogram({
      name: 'authentication_duration_seconds',
      help: 'Authentication duration in seconds broken out by result.',
      labelNames: ['result'],
      buckets: exponentialBuckets(0.001, 2, 15),
      ...opts,
    }),
    serviceAccountTokens: {
      legacy: new Counter({ name: 'serviceaccount_legacy_tokens_total', help: 'Cumulative legacy service account tokens used', ...opts }),
      legacyAuto: new Counter({ name: 'serviceaccount_legacy_auto_token_uses_total', help: 'Cumulative auto-generated legacy tokens used', ...opts }),
      legacyManual: new Counter({ name: 'serviceaccount_legacy_manual_token_uses_total', help: 'Cumulative manually created legacy tokens used', ...opts }),
      invalidLegacyAuto: new Counter({ name: 'serviceaccount_invalid_legacy_auto_token_uses_total', help: 'Cumulative invalid auto-generated legacy tokens used', ...opts }),
      stale: new Counter({ name: 'serviceaccount_stale_tokens_total', help: 'Cumulative stale projected service account tokens used', ...opts }),
      valid: new Counter({ name: 'serviceaccount_valid_tokens_total', help: 'Cumulative valid projected service account tokens used', ...opts }),
    },
    authorizationDecisions: new Counter({
      name: 'apiserver_authorization_decisions_total',
      help: 'Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.',
      labelNames: ['type', 'name', 'decision'],
      ...opts,
    }),
    authorizationWebhookEvaluations: new Counter({ name: 'apiserver_authorization_webhook_evaluations_total', help: 'Round-trips to authorization webhooks.', labelNames: ['name', 'result'], ...opts }),
    // kube's DefBuckets.
    authorizationWebhookDuration: new Histogram({
      name: 'apiserver_authorization_webhook_duration_seconds',
      help: 'Request latency in seconds.',
      labelNames: ['name', 'result'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      ...opts,
    }),
    authorizationWebhookFailOpen: new Counter({
      name: 'apiserver_authorization_webhook_evaluations_fail_open_total',
      help: 'NoOpinion results due to webhook timeout or error.',
      labelNames: ['name', 'result'],
      ...opts,
    }),
    text: () => registry.metrics(),
    stop: () => requests.inflight.stop(),
  };
}
