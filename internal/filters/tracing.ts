/**
 * The tracing filter (kube's WithTracing, otelhttp around the rest of the chain), present only
 * with --tracing-config-file. As in kube-apiserver 1.33 it runs right after authentication, so
 * that it knows who asks: the W3C trace context a client sends (traceparent, tracestate) becomes
 * the request span's parent only for users in system:masters or system:monitoring; anyone else's
 * request starts a new trace that links to theirs (otelhttp's public-endpoint rule), so untrusted
 * clients cannot pick trace ids or force sampling. The span starts when the request arrived
 * (kube's ContextWithStartTime) and ends when the response closes; the authentication it waited
 * for is recorded as its first child, and everything after it runs in its context.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type SpanOptions, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { inChildSpan, activeTrace, traceStorage } from '../observability/tracing/context.js';
import type { ActiveTrace } from '../observability/tracing/interface.js';
import type { RequestInfo } from '../request/request-info.js';
import type { UserInfo } from '../request/context.js';
import type { Filter, FilterScope } from './interface.js';
import type { RequestState } from './request-context.js';
import { requestHost } from '../server/serving/protocol.js';

/** The groups whose incoming trace context kube trusts (user.SystemPrivilegedGroup, user.MonitoringGroup). */
const trustedGroups = new Set(['system:masters', 'system:monitoring']);

/** Whether kube-apiserver would continue user's trace rather than start its own (notSystemPrivilegedGroup). */
export function trustsTraceContext(user: UserInfo): boolean {
  return user.groups.some((g) => trustedGroups.has(g));
}

/** kube's span name: "<METHOD> <route>" with namespace and name as placeholders; the method alone off the resource API. */
export function requestSpanName(method: string, info: RequestInfo): string {
  if (!info.isResourceRequest) return method;
  let route = `/${info.apiPrefix}`;
  if (info.apiGroup !== '') route += `/${info.apiGroup}`;
  route += `/${info.apiVersion}`;
  if (info.namespace !== '') route += '/namespaces/{:namespace}';
  route += `/${info.resource}`;
  if (info.name !== '') route += '/{:name}';
  if (info.subresource !== '') route += `/${info.subresource}`;
  return `${method} ${route}`;
}

/** otelhttp's server request attributes (semantic conventions v1.20, as kube's otelhttp records them) and kube's http.target. */
function serverAttributes(req: IncomingMessage): Attributes {
  const method = req.method ?? 'GET';
  const attrs: Attributes = { 'http.method': method, 'http.scheme': 'https' };
  const host = requestHost(req) ?? '';
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host);
  if (m?.[1]) attrs['net.host.name'] = m[1].replace(/^\[|\]$/g, '');
  const port = m?.[2] !== undefined ? Number(m[2]) : req.socket.localPort;
  if (port !== undefined && port !== 443) attrs['net.host.port'] = port;
  if (req.socket.remoteAddress) attrs['net.sock.peer.addr'] = req.socket.remoteAddress;
  if (req.socket.remotePort !== undefined) attrs['net.sock.peer.port'] = req.socket.remotePort;
  const ua = req.headers['user-agent'];
  if (ua) attrs['user_agent.original'] = ua;
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded === 'string' && forwarded !== '') attrs['http.client_ip'] = (forwarded.split(',')[0] as string).trim();
  attrs['net.protocol.version'] = req.httpVersion === '2.0' ? '2' : req.httpVersion;
  attrs['http.target'] = req.url ?? '/';
  return attrs;
}

const headerGetter = {
  keys: (carrier: IncomingMessage['headers']): string[] => Object.keys(carrier),
  get: (carrier: IncomingMessage['headers'], key: string): string | string[] | undefined => carrier[key],
};

/** Epoch milliseconds with sub-millisecond precision. */
const now = (): number => performance.timeOrigin + performance.now();

/** What the filter needs. */
export interface TracingFilterDeps {
  readonly tracer: Tracer;
}

/** Builds the tracing filter: a scope around authentication and the rest of the chain. */
export function withTracing(deps: TracingFilterDeps): FilterScope {
  const { tracer } = deps;
  const propagator = new W3CTraceContextPropagator();
  const storage = traceStorage();
  // Until the request span exists (authentication), work such as a token webhook call traces as its
  // own root, as kube's does: the user, and so the parent, is not known yet.
  const beforeSpan: ActiveTrace = { tracer, context: ROOT_CONTEXT, ended: false };

  const afterAuthentication = (req: IncomingMessage, res: ServerResponse, state: RequestState, authStart: number, rest: () => Promise<void>): Promise<void> => {
    const authEnd = now();
    const options: SpanOptions = { kind: SpanKind.SERVER, startTime: state.ctx.receivedAt, attributes: serverAttributes(req) };
    let parent: Context = ROOT_CONTEXT;
    if (req.headers.traceparent !== undefined) {
      const incoming = propagator.extract(ROOT_CONTEXT, req.headers, headerGetter);
      const remote = trace.getSpanContext(incoming);
      if (remote && trace.isSpanContextValid(remote)) {
        if (trustsTraceContext(state.ctx.user)) parent = incoming;
        else options.links = [{ context: remote }];
      }
    }
    const span = tracer.startSpan(requestSpanName(req.method ?? 'GET', state.ctx.requestInfo), options, parent);
    const context = trace.setSpan(ROOT_CONTEXT, span);
    tracer.startSpan('authentication', { startTime: authStart }, context).end(authEnd);
    const current: ActiveTrace = { tracer, context, ended: false };
    state.onClose(() => {
      const status = res.statusCode;
      span.setAttribute('http.status_code', status);
      // kube attaches the audit ID so that a trace leads to its audit events.
      const auditID = res.getHeader('audit-id');
      if (auditID !== undefined) span.setAttribute('audit-id', String(auditID));
      // A server span fails only on 5xx (a 4xx is the client's mistake).
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      current.ended = true;
      span.end();
    });
    return storage.run(current, rest);
  };

  const scoped = async (req: IncomingMessage, res: ServerResponse, state: RequestState, authenticate: Filter, rest: () => Promise<void>): Promise<void> => {
    const authStart = now();
    const pending = authenticate(req, res, state);
    if (pending) await pending;
    if (res.headersSent) return;
    await afterAuthentication(req, res, state, authStart, rest);
  };

  return (req, res, state, authenticate, rest) => storage.run(beforeSpan, scoped, req, res, state, authenticate, rest);
}

/** filter, run in a child span of the request span named name (kube's filterlatency spans). */
export function withFilterSpan(name: string, filter: Filter): Filter {
  return (req, res, state) => {
    const t = activeTrace();
    if (!t) return filter(req, res, state);
    return inChildSpan(t, name, undefined, () => filter(req, res, state));
  };
}
