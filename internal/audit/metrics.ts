/**
 * Audit's Prometheus metrics, as k8s.io/apiserver/pkg/audit/metrics.go names them:
 * apiserver_audit_event_total (events sent to the backend), apiserver_audit_level_total{level}
 * (the policy's level, one per request), apiserver_audit_error_total{plugin} (events a backend
 * failed to deliver) and apiserver_audit_requests_rejected_total (requests failed because the
 * RequestReceived event could not be stored). Registered on the server's registry whether or not
 * auditing is on, as kube registers them.
 */
import { Counter, type Registry } from 'prom-client';
import type { AuditBackendObserver, AuditLevel } from './interface.js';

/** What the audit filter and the backends record. Must not throw. */
export interface AuditMetrics {
  /** One event handed to the backend (any stage). */
  observeEvent(): void;
  /** The policy's level for one request (None included). */
  observePolicyLevel(level: AuditLevel): void;
  /** One request refused because its RequestReceived event was not stored (blocking-strict). */
  observeRejected(): void;
  /** For the backends: failures by plugin, and their log line (kube's HandlePluginError). */
  readonly observer: AuditBackendObserver;
}

/** Registers the audit metrics on registry; logError, when given, receives each backend failure's message. */
export function registerAuditMetrics(registry: Registry, logError?: (message: string) => void): AuditMetrics {
  const opts = { registers: [registry] };
  const events = new Counter({ name: 'apiserver_audit_event_total', help: 'Counter of audit events generated and sent to the audit backend.', ...opts });
  const errors = new Counter({
    name: 'apiserver_audit_error_total',
    help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
    labelNames: ['plugin'],
    ...opts,
  });
  const levels = new Counter({ name: 'apiserver_audit_level_total', help: 'Counter of policy levels for audit events (1 per request).', labelNames: ['level'], ...opts });
  const rejected = new Counter({
    name: 'apiserver_audit_requests_rejected_total',
    help: 'Counter of apiserver requests rejected due to an error in audit logging backend.',
    ...opts,
  });
  // The level children are resolved once: recording costs no label lookup per request.
  const byLevel: Record<AuditLevel, { inc(): void }> = {
    None: levels.labels({ level: 'None' }),
    Metadata: levels.labels({ level: 'Metadata' }),
    Request: levels.labels({ level: 'Request' }),
    RequestResponse: levels.labels({ level: 'RequestResponse' }),
  };
  return {
    observeEvent: () => events.inc(),
    observePolicyLevel: (level) => byLevel[level].inc(),
    observeRejected: () => rejected.inc(),
    observer: {
      error: (plugin, count) => errors.inc({ plugin }, count),
      ...(logError ? { logError } : {}),
    },
  };
}
