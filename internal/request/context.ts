/**
 * RequestContext: the per-request state that filters fill in and handlers and registries read:
 * who is asking, what they asked for, when the request must finish, and warnings to return.
 * Created by the first filter; never shared between requests.
 */
import type { AuditRecorder } from '../audit/interface.js';
import type { RequestInfo } from './request-info.js';

/** user.Info: who made the request. */
export interface UserInfo {
  readonly name: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The anonymous user kube-apiserver assigns when no authenticator claims a request. */
export const anonymousUser: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

/** State of one request. Handlers may push warnings; everything else is set by filters. */
export interface RequestContext {
  readonly requestInfo: RequestInfo;
  user: UserInfo;
  /**
   * The authenticated user when the request impersonates another (Impersonate-User): user is then
   * the impersonated user, and this is who asked, for audit and logs. Absent otherwise.
   */
  impersonator?: UserInfo;
  /** Aborted when the client goes away or the request times out. */
  readonly signal: AbortSignal;
  /**
   * kube's ServerShutdownSignal: set on a watch by the watch-termination filter (with
   * --shutdown-watch-termination-grace-period) and aborted when the watch must end because the
   * server is shutting down. Absent otherwise.
   */
  shutdownSignal?: AbortSignal;
  /**
   * Set by priority and fairness on an admitted watch: the watch handler calls it once the watch's
   * initial events are written, and the watch's seats are given back then (kube's
   * WatchInitialized). Absent otherwise; calling it more than once is harmless.
   */
  watchInitialized?: () => void;
  /** Epoch milliseconds by which a non-long-running request must finish, if any. */
  deadline?: number;
  /**
   * The status code a filter refused the request with in self-defense (kube's
   * RecordRequestTermination: 429 from the max-in-flight limits or priority and fairness); the
   * request metrics count it in apiserver_request_terminations_total. Absent otherwise.
   */
  terminatedWith?: number;
  /** Texts for `Warning: 299 - "<text>"` response headers, in order, without duplicates. */
  readonly warnings: string[];
  /** The User-Agent header, for default field manager names and audit. */
  readonly userAgent: string;
  /** When the request arrived (epoch ms). */
  readonly receivedAt: number;
  /**
   * The request's audit ID (kube's Audit-ID): the client's Audit-ID header, or a new UUID. Set by
   * the audit-init filter on every request, echoed in the Audit-Id response header.
   */
  auditID?: string;
  /**
   * The request's audit record, set by the audit filter when the policy audits the request (absent
   * otherwise: record with `ctx.audit?.annotate(...)`).
   */
  audit?: AuditRecorder;
  /**
   * Audit annotations authentication made before the request's audit event existed (kube keeps
   * them in the audit context): the audit filter adds them to the event. Absent: none.
   */
  authenticationAnnotations?: Readonly<Record<string, string>>;
}

/** Adds a warning once. */
export function addWarning(ctx: RequestContext, text: string): void {
  if (!ctx.warnings.includes(text)) ctx.warnings.push(text);
}

/** The identity in-process controllers act as. */
export const systemUser: UserInfo = { name: 'system:apiserver', uid: 'capstan-apiserver', groups: ['system:masters'] };

/** A context for a request the server makes to itself (controllers, bootstrap). */
export function internalContext(opts: {
  verb: string;
  group?: string;
  version?: string;
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  signal?: AbortSignal;
}): RequestContext {
  const group = opts.group ?? '';
  const version = opts.version ?? 'v1';
  return {
    requestInfo: {
      isResourceRequest: true,
      path: '',
      verb: opts.verb,
      apiPrefix: group ? 'apis' : 'api',
      apiGroup: group,
      apiVersion: version,
      namespace: opts.namespace ?? '',
      resource: opts.resource,
      subresource: opts.subresource ?? '',
      name: opts.name ?? '',
      parts: [opts.resource, ...(opts.name ? [opts.name] : [])],
    },
    user: systemUser,
    signal: opts.signal ?? new AbortController().signal,
    warnings: [],
    userAgent: 'capstan-apiserver',
    receivedAt: Date.now(),
  };
}
