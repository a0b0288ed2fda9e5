/**
 * Audit (audit.k8s.io/v1): the shapes every part of auditing shares. The policy decides a request's
 * level and the stages it omits; the audit filter keeps one event per request (a RequestRecorder on
 * the RequestContext) and hands a copy to the backend at each stage; backends (log, webhook) and
 * their decorators (buffering, truncation) each implement AuditBackend, and several compose as a
 * union that is itself one.
 */
import type { UserInfo } from '../request/context.js';

/** audit.k8s.io/v1 Level, from least to most detail. */
export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';

/** audit.k8s.io/v1 Stage. */
export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

/** audit.k8s.io/v1 ObjectReference. */
export interface AuditObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** audit.k8s.io/v1 Event, field for field as kube writes it (absent fields are omitted). */
export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: AuditLevel;
  auditID: string;
  stage: AuditStage;
  requestURI: string;
  verb: string;
  user: AuditUserInfo;
  impersonatedUser?: AuditUserInfo;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: AuditObjectReference;
  /** metav1.Status of the answer (code always; message and reason for failures). */
  responseStatus?: { metadata: Record<string, never>; status?: string; message?: string; reason?: string; code: number; details?: unknown };
  requestObject?: unknown;
  responseObject?: unknown;
  /** RFC 3339 with microseconds, as kube's MicroTime. */
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** authentication.k8s.io/v1 UserInfo as it appears in an event. */
export interface AuditUserInfo {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** What the policy decides for one request. */
export interface AuditRequirement {
  readonly level: AuditLevel;
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields: boolean;
}

/** The attributes a policy rule matches on (kube's authorizer.Attributes as audit sees them). */
export interface AuditAttributes {
  readonly user: UserInfo;
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

/** An audit policy (--audit-policy-file), evaluated once per request. Pure and synchronous. */
export interface AuditPolicyEvaluator {
  evaluate(attrs: AuditAttributes): AuditRequirement;
}

/**
 * A destination for audit events. processEvents is called once per stage per request, with events
 * the caller no longer changes; it never blocks the request unless the backend's mode says so
 * (blocking modes return a promise the filter awaits). It returns false when the events could not
 * be delivered (blocking-strict then fails the request). shutdown flushes what is buffered.
 */
export interface AuditBackend {
  readonly name: string;
  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean>;
  run?(): void;
  shutdown(): Promise<void>;
}

/**
 * The audit state of one request, on the RequestContext while the request is audited (absent at
 * level None). Filters and handlers record into it; the audit filter emits the stages.
 */
export interface AuditRecorder {
  readonly level: AuditLevel;
  /** Adds an annotation (authorization.k8s.io/decision, mutation.webhook.admission.k8s.io/..., ...). The first value for a key wins, as kube's. */
  annotate(key: string, value: string): void;
  /** The decoded request body (kept at level Request and above). */
  setRequestObject(obj: unknown): void;
  /** The object or Status answered (kept at level RequestResponse). */
  setResponseObject(obj: unknown): void;
  /**
   * The body of a patch, as sent (kube's LogRequestPatch: kept at level Request and above; unlike
   * setRequestObject it completes nothing of the objectRef).
   */
  setRequestPatch(patch: unknown): void;
}

/** A backend's mode (--audit-log-mode, --audit-webhook-mode). */
export type AuditMode = 'batch' | 'blocking' | 'blocking-strict';

/** The batch decorator's settings (--audit-<backend>-batch-*); kube's defaults differ per backend. */
export interface BatchConfig {
  /** --audit-<backend>-batch-buffer-size: events held before new ones are dropped. */
  readonly bufferSize: number;
  /** --audit-<backend>-batch-max-size. */
  readonly maxBatchSize: number;
  /** --audit-<backend>-batch-max-wait, in ms: a partial batch is sent after this long. */
  readonly maxBatchWaitMs: number;
  /** --audit-<backend>-batch-throttle-enable, -qps, -burst. */
  readonly throttleEnable: boolean;
  readonly throttleQPS: number;
  readonly throttleBurst: number;
  /**
   * Whether a batch is handed to the delegate without waiting for the previous one to finish
   * (kube's AsyncDelegate: true for the webhook, false for the log, whose writes stay in order).
   * Absent: false.
   */
  readonly asyncDelegate?: boolean;
}

/** The truncation decorator's settings (--audit-<backend>-truncate-*). */
export interface TruncateConfig {
  /** --audit-<backend>-truncate-max-batch-size, bytes. */
  readonly maxBatchSize: number;
  /** --audit-<backend>-truncate-max-event-size, bytes. */
  readonly maxEventSize: number;
}

/**
 * What backends report for apiserver_audit_* metrics (the audit wiring passes one built on the
 * server's registry). plugin is the backend's name ("log", "webhook").
 */
export interface AuditBackendObserver {
  /** Events a backend could not deliver or dropped (apiserver_audit_error_total{plugin}). */
  error(plugin: string, count: number): void;
  /**
   * Logs a backend's failure with one line per impacted event (kube's HandlePluginError message,
   * logged at error level). Absent: failures are only counted.
   */
  logError?(message: string): void;
}
