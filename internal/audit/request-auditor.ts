/**
 * The audit record of one request (kube's AuditContext and its event): what the filters and
 * handlers record (annotations, the request object, the response object or Status) and, at each
 * stage, a fresh Event in kube's field order handed to the backend. An event handed over is never
 * changed afterwards: later stages build new ones, and what they share (objects recorded, the
 * objectRef, annotations) is replaced rather than modified.
 *
 * What each level keeps follows kube's LogRequestObject / LogResponseObject: from Metadata the
 * request object completes the objectRef (name, namespace, uid, resourceVersion when the path did
 * not give them) and a Status answer gives the responseStatus its status, message, reason and
 * details; from Request the request object (or patch) itself; at RequestResponse the answer too.
 */
import type { RequestContext, UserInfo } from '../request/context.js';
import type { AuditBackend, AuditEvent, AuditLevel, AuditObjectReference, AuditRecorder, AuditRequirement, AuditStage, AuditUserInfo } from './interface.js';
import { withoutManagedFields } from './managed-fields.js';
import type { AuditMetrics } from './metrics.js';
import { formatMicroTime, nowMicros } from './micro-time.js';

/** Where events go. */
export interface AuditSink {
  readonly backend: AuditBackend;
  readonly metrics: AuditMetrics;
}

/** What the event says of the request itself, fixed when auditing of the request begins. */
export interface AuditEventBase {
  readonly auditID: string;
  readonly requestURI: string;
  readonly verb: string;
  readonly user: AuditUserInfo;
  readonly sourceIPs: readonly string[];
  readonly userAgent: string;
  readonly objectRef?: AuditObjectReference;
  /** Epoch microseconds. */
  readonly requestReceivedMicros: number;
}

type ResponseStatus = NonNullable<AuditEvent['responseStatus']>;
type StatusFields = Pick<ResponseStatus, 'status' | 'message' | 'reason' | 'details'>;

const stageBits: Readonly<Record<AuditStage, number>> = { RequestReceived: 1, ResponseStarted: 2, ResponseComplete: 4, Panic: 8 };
const levelRank: Readonly<Record<AuditLevel, number>> = { None: 0, Metadata: 1, Request: 2, RequestResponse: 3 };

/** What kube records when a request ends without an answer having been started. */
const closedEarly: StatusFields = { status: 'Success', message: 'Connection closed early' };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** An ObjectReference with kube's field order, empty fields left out. */
export function objectReference(r: AuditObjectReference): AuditObjectReference {
  const out: AuditObjectReference = {};
  if (r.resource) out.resource = r.resource;
  if (r.namespace) out.namespace = r.namespace;
  if (r.name) out.name = r.name;
  if (r.uid) out.uid = r.uid;
  if (r.apiGroup) out.apiGroup = r.apiGroup;
  if (r.apiVersion) out.apiVersion = r.apiVersion;
  if (r.resourceVersion) out.resourceVersion = r.resourceVersion;
  if (r.subresource) out.subresource = r.subresource;
  return out;
}

/** A user as an event shows it (authentication.k8s.io/v1 UserInfo; extra keys sorted, as Go writes maps). */
export function auditUserInfo(u: UserInfo): AuditUserInfo {
  const out: AuditUserInfo = { username: u.name };
  if (u.uid) out.uid = u.uid;
  if (u.groups.length > 0) out.groups = [...u.groups];
  if (u.extra) {
    const keys = Object.keys(u.extra).sort();
    if (keys.length > 0) {
      const extra: Record<string, string[]> = {};
      for (const k of keys) extra[k] = [...(u.extra[k] ?? [])];
      out.extra = extra;
    }
  }
  return out;
}

/** A deep copy that later changes to the original cannot reach. */
function snapshot(obj: unknown): unknown {
  try {
    return structuredClone(obj);
  } catch {
    return JSON.parse(JSON.stringify(obj) ?? 'null') as unknown;
  }
}

/** The audit state of one audited request; ctx.audit while the request runs. */
export class RequestAuditor implements AuditRecorder {
  readonly level: AuditLevel;
  private readonly omit: number;
  private readonly omitManagedFields: boolean;
  private readonly received: string;
  private objectRef: AuditObjectReference | undefined;
  private annotations: Record<string, string> | undefined;
  private requestObject: unknown;
  private responseObject: unknown;
  private status: StatusFields | undefined;
  private panicMessage: string | undefined;
  private impersonated: AuditUserInfo | undefined;

  constructor(
    private readonly base: AuditEventBase,
    requirement: AuditRequirement,
    private readonly sink: AuditSink,
    /** The request's context, read for the impersonated user once impersonation ran. */
    private readonly ctx?: RequestContext,
  ) {
    this.level = requirement.level;
    let omit = 0;
    for (const s of requirement.omitStages) omit |= stageBits[s];
    this.omit = omit;
    this.omitManagedFields = requirement.omitManagedFields;
    this.received = formatMicroTime(base.requestReceivedMicros);
    this.objectRef = base.objectRef;
  }

  annotate(key: string, value: string): void {
    if (this.annotations && key in this.annotations) return;
    // A new object, keys sorted: events already handed over keep theirs, and maps read as Go writes them.
    const prev = this.annotations ?? {};
    const keys = Object.keys(prev);
    keys.push(key);
    keys.sort();
    const next: Record<string, string> = {};
    for (const k of keys) next[k] = k === key ? value : (prev[k] as string);
    this.annotations = next;
  }

  setRequestObject(obj: unknown): void {
    const ref = this.objectRef;
    if (ref && isObject(obj) && isObject(obj.metadata)) {
      const m = obj.metadata;
      const filled = {
        ...ref,
        namespace: ref.namespace || str(m.namespace),
        name: ref.name || str(m.name),
        uid: ref.uid || str(m.uid),
        resourceVersion: ref.resourceVersion || str(m.resourceVersion),
      };
      if (filled.namespace !== (ref.namespace ?? '') || filled.name !== (ref.name ?? '') || filled.uid !== (ref.uid ?? '') || filled.resourceVersion !== (ref.resourceVersion ?? '')) {
        this.objectRef = objectReference(filled);
      }
    }
    if (levelRank[this.level] >= levelRank.Request) this.requestObject = this.recordable(snapshot(obj));
  }

  setRequestPatch(patch: unknown): void {
    if (levelRank[this.level] >= levelRank.Request) this.requestObject = snapshot(patch);
  }

  setResponseObject(obj: unknown): void {
    if (isObject(obj) && obj.kind === 'Status') {
      const s: StatusFields = {};
      if (typeof obj.status === 'string' && obj.status) s.status = obj.status;
      if (typeof obj.message === 'string' && obj.message) s.message = obj.message;
      if (typeof obj.reason === 'string' && obj.reason) s.reason = obj.reason;
      if (obj.details !== undefined && obj.details !== null) s.details = obj.details;
      this.status = s;
    }
    if (this.level === 'RequestResponse') this.responseObject = this.recordable(obj);
  }

  /** Marks the request as failed by an unexpected exception: its last event is Panic, not ResponseComplete. */
  panic(message: string): void {
    this.panicMessage ??= message;
  }

  /** Whether panic() was called. */
  get panicked(): boolean {
    return this.panicMessage !== undefined;
  }

  /**
   * Hands the event of stage to the backend (nothing when the policy omits it): code is the HTTP
   * status answered (undefined: none was, the connection closed early). Resolves (or returns) false
   * when the backend could not take the event; never throws.
   */
  emit(stage: AuditStage, code?: number): boolean | Promise<boolean> {
    if (this.omit & stageBits[stage]) return true;
    let ev: AuditEvent;
    try {
      ev = this.event(stage, code);
      this.sink.metrics.observeEvent();
      const r = this.sink.backend.processEvents([ev]);
      return r instanceof Promise ? r.catch(() => false) : r;
    } catch {
      return false;
    }
  }

  private recordable(obj: unknown): unknown {
    return this.omitManagedFields ? withoutManagedFields(obj) : obj;
  }

  private responseStatus(stage: AuditStage, code: number | undefined): ResponseStatus {
    if (stage === 'Panic') return { metadata: {}, status: 'Failure', message: `APIServer panic'd: ${this.panicMessage ?? ''}`, reason: 'InternalError', code: 500 };
    const fields = code === undefined ? closedEarly : this.status;
    const out = { metadata: {} } as ResponseStatus;
    if (fields?.status) out.status = fields.status;
    if (fields?.message) out.message = fields.message;
    if (fields?.reason) out.reason = fields.reason;
    if (fields?.details !== undefined) out.details = fields.details;
    out.code = code ?? 200;
    return out;
  }

  private event(stage: AuditStage, code: number | undefined): AuditEvent {
    const b = this.base;
    // Fields are added in kube's order (Event's), so that every backend serialises them so.
    const ev = { kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: this.level, auditID: b.auditID, stage, requestURI: b.requestURI, verb: b.verb, user: b.user } as AuditEvent;
    if (this.ctx?.impersonator) {
      this.impersonated ??= auditUserInfo(this.ctx.user);
      ev.impersonatedUser = this.impersonated;
    }
    if (b.sourceIPs.length > 0) ev.sourceIPs = b.sourceIPs as string[];
    if (b.userAgent) ev.userAgent = b.userAgent;
    if (this.objectRef) ev.objectRef = this.objectRef;
    if (stage !== 'RequestReceived') ev.responseStatus = this.responseStatus(stage, code);
    if (this.requestObject !== undefined) ev.requestObject = this.requestObject;
    if (this.responseObject !== undefined) ev.responseObject = this.responseObject;
    ev.requestReceivedTimestamp = this.received;
    ev.stageTimestamp = stage === 'RequestReceived' ? this.received : formatMicroTime(nowMicros());
    if (this.annotations) ev.annotations = this.annotations;
    return ev;
  }
}
