/**
 * The audit filter (kube's WithAudit), right after authentication: the policy decides the
 * request's level from who asks and what for; an audited request gets its RequestAuditor as
 * ctx.audit and its events: RequestReceived now, ResponseStarted when a long-running request
 * (watch, exec, attach, port-forward, proxy, log) starts its answer, and ResponseComplete when the
 * answer ends, or Panic instead when an unexpected exception ended the request.
 *
 * Events are taken from the response itself: the status code when the answer ends, and the answer
 * is held back until its ResponseComplete event has been handed over, which in the blocking modes
 * means written, so that a client never sees an answer whose record is not yet in the log (kube's
 * blocking mode). In blocking-strict mode a RequestReceived event the backend could not store
 * fails the request with kube's 500 before anything else runs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuditAttributes, AuditBackend, AuditPolicyEvaluator, AuditUserInfo } from '../audit/interface.js';
import type { AuditMetrics } from '../audit/metrics.js';
import { auditUserInfo, objectReference, RequestAuditor, type AuditEventBase } from '../audit/request-auditor.js';
import { sourceIPs } from '../audit/source-ips.js';
import { StatusError } from '../apierrors/status-error.js';
import type { Logger } from '../observability/logging.js';
import type { RequestContext, UserInfo } from '../request/context.js';
import { goQuote } from '../validation/field-error.js';
import { requestReceivedMicros } from './audit-init.js';
import type { Filter } from './interface.js';
import type { RequestState } from './request-context.js';
import { isLongRunning } from './timeout.js';

/** What the audit filters need: absent when auditing is off (no policy or no backend). */
export interface AuditFilterDeps {
  readonly policy: AuditPolicyEvaluator;
  readonly backend: AuditBackend;
  readonly metrics: AuditMetrics;
  readonly log?: Logger;
}

const maxUserAgentLength = 1024;

/** The attributes the policy matches (kube's GetAuthorizerAttributes) for ctx's request as user. */
export function auditAttributes(ctx: RequestContext, user: UserInfo): AuditAttributes {
  const i = ctx.requestInfo;
  return {
    user,
    verb: i.verb,
    isResourceRequest: i.isResourceRequest,
    path: i.path,
    apiGroup: i.apiGroup,
    apiVersion: i.apiVersion,
    resource: i.resource,
    subresource: i.subresource,
    namespace: i.namespace,
    name: i.name,
  };
}

/** kube's NewEventFromRequest: what an event says of the request, for user. */
export function eventBase(req: IncomingMessage, ctx: RequestContext, user: AuditUserInfo): AuditEventBase {
  const i = ctx.requestInfo;
  const ua = ctx.userAgent;
  return {
    auditID: ctx.auditID ?? '',
    requestURI: req.url ?? '/',
    verb: i.verb,
    user,
    sourceIPs: sourceIPs(req),
    userAgent: ua.length > maxUserAgentLength ? `${ua.slice(0, maxUserAgentLength)}...TRUNCATED` : ua,
    ...(i.isResourceRequest
      ? { objectRef: objectReference({ resource: i.resource, namespace: i.namespace, name: i.name, apiGroup: i.apiGroup, apiVersion: i.apiVersion, subresource: i.subresource }) }
      : {}),
    requestReceivedMicros: requestReceivedMicros(ctx),
  };
}

/** The byte length of what end(chunk, encoding) sends (0 for end() and end(callback)). */
function bodyLength(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === 'string') return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return chunk instanceof Uint8Array ? chunk.byteLength : 0;
}

/**
 * Wires an auditor to the response: the stage `last` (ResponseComplete, or ResponseStarted for a
 * failed authentication) is emitted when the answer ends, before it is released; a long-running
 * request also emits ResponseStarted when its header goes out; a connection that closes without
 * an answer still gets its events (kube's "Connection closed early").
 */
export function attachAuditor(auditor: RequestAuditor, res: ServerResponse, state: RequestState, last: 'ResponseComplete' | 'ResponseStarted', longRunning: boolean): void {
  state.ctx.audit = auditor;
  let started = false;
  const start = (code: number | undefined): void => {
    if (started) return;
    started = true;
    // Not awaited: a header cannot wait; the backend keeps events in order regardless.
    void auditor.emit('ResponseStarted', code);
  };
  if (longRunning && last === 'ResponseComplete') {
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
      start(args[0]);
      return writeHead.apply(this, args);
    } as ServerResponse['writeHead'];
  }
  let ended = false;
  const finish = (code: number | undefined): boolean | Promise<boolean> => {
    if (longRunning && last === 'ResponseComplete') start(code);
    return auditor.emit(auditor.panicked ? 'Panic' : last, code);
  };
  const end = res.end;
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    if (ended) return this;
    ended = true;
    // The header is fixed now: nothing can change the code the event reports, or the answer while
    // the event is written. The length end() would have worked out is set first, as end() would.
    if (!this.headersSent) {
      if (!this.hasHeader('Content-Length') && !this.hasHeader('Transfer-Encoding') && this.statusCode !== 204 && this.statusCode !== 304) {
        this.setHeader('Content-Length', bodyLength(args[0], args[1]));
      }
      this.writeHead(this.statusCode);
    }
    const done = finish(this.statusCode);
    if (done instanceof Promise) {
      void done.then(() => (end as (...a: unknown[]) => ServerResponse).apply(this, args));
      return this;
    }
    return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['end'];
  state.onClose(() => {
    if (ended) return;
    ended = true;
    void finish(res.headersSent ? res.statusCode : undefined);
  });
}

/** Answers kube's 500 for a request whose RequestReceived event could not be stored. */
function refuse(req: IncomingMessage, res: ServerResponse, deps: AuditFilterDeps): void {
  deps.metrics.observeRejected();
  deps.log?.error('failed to store audit event');
  // kube's responsewriters.InternalError: http.Error with the message HTML-escaped.
  const message = `Internal Server Error: ${goQuote(req.url ?? '/')}: failed to store audit event`.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
  res.statusCode = 500;
  res.removeHeader('Content-Length');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(`${message}\n`);
}

/** Builds the audit filter; undefined when auditing is off. */
export function withAudit(deps: AuditFilterDeps | undefined): Filter | undefined {
  if (!deps) return undefined;
  const sink = { backend: deps.backend, metrics: deps.metrics };
  return (req, res, state) => {
    const ctx = state.ctx;
    const requirement = deps.policy.evaluate(auditAttributes(ctx, ctx.user));
    deps.metrics.observePolicyLevel(requirement.level);
    if (requirement.level === 'None') return undefined;
    const auditor = new RequestAuditor(eventBase(req, ctx, auditUserInfo(ctx.user)), requirement, sink, ctx);
    if (ctx.authenticationAnnotations) for (const [k, v] of Object.entries(ctx.authenticationAnnotations)) auditor.annotate(k, v);
    const longRunning = isLongRunning(ctx.requestInfo);
    const received = auditor.emit('RequestReceived');
    if (received === true) {
      attachAuditor(auditor, res, state, 'ResponseComplete', longRunning);
      return undefined;
    }
    if (received === false) {
      refuse(req, res, deps);
      return undefined;
    }
    return received.then((ok) => {
      if (ok) attachAuditor(auditor, res, state, 'ResponseComplete', longRunning);
      else refuse(req, res, deps);
    });
  };
}

/**
 * Records an error answer about to be written for ctx's request: its Status (responseStatus, and
 * the response object at RequestResponse); for anything but a StatusError (an exception nobody
 * meant to answer with), that the request panicked instead. Call before writing the Status.
 */
export function recordAuditedError(ctx: RequestContext | undefined, err: unknown, status: unknown): void {
  const audit = ctx?.audit;
  if (!audit) return;
  if (!(err instanceof StatusError) && audit instanceof RequestAuditor) {
    // kube's Panic event carries its own status; the answer is not the handler's.
    audit.panic(err instanceof Error ? err.message : String(err));
    return;
  }
  audit.setResponseObject(status);
}
