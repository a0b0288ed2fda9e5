/**
 * The handler chain: the filters in the order they run, then the health endpoints, discovery and
 * the resource dispatcher, and last the error handler that turns anything thrown into a Status.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { notFoundFor, PageNotFoundError, writePageNotFound } from '../endpoints/not-found.js';
import type { AggregatorProxy } from '../aggregator/interface.js';
import type { DiscoveryHandler } from '../endpoints/discovery/handler.js';
import type { OpenIdMetadataHandler } from '../endpoints/openid-metadata.js';
import type { ResourceDispatcher } from '../endpoints/dispatcher.js';
import type { OpenApiV2Handler } from '../endpoints/openapi/v2.js';
import type { OpenApiV3Handler } from '../endpoints/openapi/v3.js';
import { toStatusError, writeStatus } from '../endpoints/negotiation/writer.js';
import type { Authenticator } from '../authn/interface.js';
import type { Authorizer } from '../authz/interface.js';
import { withAudit, recordAuditedError, type AuditFilterDeps } from '../filters/audit.js';
import { withAuditInit } from '../filters/audit-init.js';
import { withFailedAuthenticationAudit } from '../filters/authn-audit.js';
import { withAuthentication } from '../filters/authentication.js';
import { withAuthorization } from '../filters/authorization.js';
import { observeAuthorization } from '../filters/authorization-metrics.js';
import { withCORS } from '../filters/cors.js';
import { withHSTS } from '../filters/hsts.js';
import { withProbabilisticGoaway } from '../filters/goaway.js';
import { withHTTPLogging } from '../filters/httplog.js';
import { withImpersonation } from '../filters/impersonation.js';
import { withRequestMetrics, type ServedResources } from '../filters/request-metrics.js';
import type { Filter, FilterScope } from '../filters/interface.js';
import { attachRequestContext, stateOf, type RequestState } from '../filters/request-context.js';
import { withRetryAfter } from '../filters/retry-after.js';
import { withoutResponseCompression } from '../filters/response-compression.js';
import { armTimeout } from '../filters/timeout.js';
import { withWaitGroup } from '../filters/wait-group.js';
import { withWatchTerminationDuringShutdown } from '../filters/watch-termination.js';
import { observeAuthentication } from '../observability/authentication-metrics.js';
import type { KlogLogger } from '../observability/logging.js';
import type { ServerMetrics } from '../observability/metrics.js';
import type { ServerTracing } from '../observability/tracing/interface.js';
import type { DebugEndpoints } from './debug/endpoints.js';
import type { RequestContext } from '../request/context.js';
import { serveHealth, type HealthEndpoints } from './health.js';
import type { FlowControl } from './flow-control.js';
import type { ServerLifecycle } from './lifecycle/interface.js';

/** What the chain serves. */
export interface ChainDeps {
  readonly health: HealthEndpoints;
  readonly discovery: DiscoveryHandler;
  readonly dispatcher: ResourceDispatcher;
  /** The aggregator's proxy to extension servers (absent: nothing is proxied). */
  readonly aggregator?: AggregatorProxy;
  readonly openapi: OpenApiV3Handler;
  readonly openapiV2: OpenApiV2Handler;
  readonly requestTimeoutMs: number;
  readonly log: KlogLogger;
  readonly metrics: ServerMetrics;
  /** What the server serves: the request metrics label anything else as unknown. */
  readonly served: ServedResources;
  /** Who made a request: every configured method as one union (with the anonymous fallback). */
  readonly authenticator: Authenticator;
  /** May they: the --authorization-mode union. */
  readonly authorizer: Authorizer;
  /** --strict-transport-security-directives (empty: no HSTS header). */
  readonly hstsDirectives?: readonly string[];
  /** --goaway-chance (0: off): the fraction of HTTP/2 requests whose connection is sent GOAWAY. */
  readonly goawayChance?: number;
  /** --cors-allowed-origins (empty: CORS off). */
  readonly corsAllowedOrigins?: readonly string[];
  /** Service account issuer discovery (absent when the issuer cannot be discovered). */
  readonly openidMetadata?: OpenIdMetadataHandler;
  /** --tracing-config-file's tracing (absent: no tracing filter, no spans). */
  readonly tracing?: ServerTracing;
  /** The server's lifecycle: the in-flight wait groups and the signals of a graceful shutdown. */
  readonly lifecycle: ServerLifecycle;
  /** /debug/pprof and /debug/flags/v (absent with --profiling=false: those paths are 404). */
  readonly debug?: DebugEndpoints;
  /** Auditing (absent when off: no policy or no backend); the Audit-Id header is sent regardless. */
  readonly audit?: AuditFilterDeps;
  /** Priority and fairness or the max-in-flight limits (internal/server/flow-control.ts). */
  readonly flowControl?: FlowControl;
  /** The APIResponseCompression gate (absent: on, kube 1.33's default): off, resource responses are never gzipped. */
  readonly responseCompression?: boolean;
}

/**
 * The chain as the listener calls it, for HTTP/1.1 (upgrades included) and HTTP/2 alike: the
 * filters, the routes and the error handler, reached through the Express application for HTTP/1.1
 * requests outside /api and /apis, and directly for the rest (see the end of buildChain).
 */
export interface Chain {
  /** Serves one request; errors go to the error handler (a Status, never an HTML page). Never throws. */
  readonly serve: (req: IncomingMessage, res: ServerResponse) => void;
}

/** Builds the handler chain. */
export function buildChain(deps: ChainDeps): Chain {
  // The filters after the request context, in the order they run (kube's DefaultBuildHandlerChain
  // read outside-in): the shutdown retry-after first, so a draining server turns requests away
  // before doing any work for them (its 429 carries no HSTS header, as kube's does not); HSTS, so
  // every other answer carries its header, errors included; the goaway chance (kube's sits between
  // cache-control and the wait group; it only marks the connection); the in-flight wait group and the watch
  // termination, so that a graceful shutdown waits for every request that got further; the
  // timeout (never for long-running requests); CORS before authentication, so a preflight (which
  // carries no credentials) is answered without them; authentication names the user;
  // impersonation, which must know who asks, may swap in the user they act as; authorization,
  // which needs the final user, decides last, right before the handler. Retry-after, HSTS, watch
  // termination and CORS are absent unless their flags are set. httplog comes first: it logs every
  // request at -v=3, the retry-after 429s included (kube's WithHTTPLogging sits outside them).
  // The request metrics come before it (kube's latency tracking is outer too), so that every
  // answer, refusals included, is counted and timed. Audit init comes first of all (every answer
  // carries its Audit-Id, which httplog logs); the audit filter right after authentication, which
  // it needs for the user (its 401s are audited on their own), and before impersonation, so that
  // the event's user is who asked and impersonatedUser whom they act as. Flow control (priority and
  // fairness or the max-in-flight limits) sits between impersonation and authorization, as kube's:
  // it classifies by the user the request acts as, and a request waits before it is authorized.
  const { lifecycle } = deps;
  const timeout: Filter = (req, res, state) => armTimeout(req, res, state, deps.requestTimeoutMs);
  const authentication = withFailedAuthenticationAudit(withAuthentication({ authenticator: deps.authenticator, log: deps.log, observe: observeAuthentication(deps.metrics) }), deps.audit);
  const authorization = withAuthorization({ authorizer: deps.authorizer, observe: observeAuthorization(deps.metrics) });
  const filters: readonly Filter[] = [
    withAuditInit(deps.audit !== undefined),
    withRequestMetrics({ metrics: deps.metrics.requests, served: deps.served, countInflight: deps.flowControl?.countsInflight !== true }),
    withHTTPLogging(deps.log),
    withRetryAfter(lifecycle),
    withoutResponseCompression(deps.responseCompression ?? true),
    withHSTS(deps.hstsDirectives ?? []),
    withProbabilisticGoaway(deps.goawayChance ?? 0),
    withWaitGroup(lifecycle.requests),
    withWatchTerminationDuringShutdown(lifecycle.watches),
    timeout,
    withCORS(deps.corsAllowedOrigins ?? []),
    authentication,
    withAudit(deps.audit),
    withImpersonation({ authorizer: deps.authorizer, log: deps.log }),
    deps.flowControl?.filter,
    deps.tracing ? deps.tracing.spanFilter('authorization', authorization) : authorization,
  ].filter((f): f is Filter => f !== undefined);
  // Tracing (kube 1.33 runs WithTracing right after authentication: it must know the user to decide
  // whether to trust the client's trace context) wraps authentication and everything after it, so
  // that its span is the context of the rest: the loop hands the scope the rest of the request as
  // a resumption of itself. Without tracing scopeAt is -1 and never met.
  const scope: FilterScope | undefined = deps.tracing?.requestScope;
  const scopeAt = scope ? filters.indexOf(authentication) : -1;

  // One function runs the filters in order (the request context first: everything after
  // reads it) and then routes: resource requests first, the hot path, then health, metrics,
  // discovery and OpenAPI.
  const serve = async (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void, resume?: { state: RequestState; from: number }): Promise<void> => {
    try {
      const state = resume ? resume.state : attachRequestContext(req, res);
      for (let i = resume?.from ?? 0; i < filters.length; i++) {
        const filter = filters[i] as Filter;
        if (i === scopeAt) return await (scope as FilterScope)(req, res, state, filter, () => serve(req, res, next, { state, from: i + 1 }));
        const pending = filter(req, res, state);
        if (pending) await pending;
        if (res.headersSent) return;
      }
      const { path, query, ctx } = state;
      // Group versions served by extension servers go there, authorized like any other request.
      if (deps.aggregator && path.startsWith('/apis/') && (await deps.aggregator.serve(req, res, path, ctx))) return;
      if (ctx.requestInfo.isResourceRequest) {
        await deps.dispatcher.handle(req, res, ctx, query);
        return;
      }
      if (await serveHealth(deps.health, req, res, path, query, deps.log)) return;
      if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
        const text = await deps.metrics.text();
        res.statusCode = 200;
        res.setHeader('Content-Type', deps.metrics.registry.contentType);
        res.end(req.method === 'HEAD' ? undefined : text);
        return;
      }
      if (deps.openidMetadata?.serve(req, res, path)) return;
      if (deps.flowControl?.serveDebug(req, res, path, query)) return;
      if (deps.debug && path.startsWith('/debug/') && (await deps.debug.serve(req, res, path, query))) return;
      if (await deps.discovery.handle(req, res, path, query)) return;
      if (await deps.openapi.handle(req, res, path, query)) return;
      if (await deps.openapiV2.handle(req, res, path, query)) return;
      if (path.startsWith('/api/') || path.startsWith('/apis/') || path === '/api' || path === '/apis') throw notFoundFor(deps.served, path);
      writePageNotFound(res);
    } catch (err) {
      next(err);
    }
  };
  // The error handler: a StatusError is the client's answer; anything else is an internal error
  // (logged with its stack) — never an HTML page or an empty body.
  const handleError = (err: unknown, req: IncomingMessage, res: ServerResponse): void => {
    let query = new URLSearchParams();
    let warnings: readonly string[] = [];
    let ctx: RequestContext | undefined;
    try {
      const state = stateOf(req);
      query = state.query;
      warnings = state.ctx.warnings;
      ctx = state.ctx;
    } catch {
      // The context filter itself failed; answer without it.
    }
    const status = toStatusError(err, (e) => deps.log.error(`internal error serving ${req.method} ${req.url}: ${(e as Error)?.stack ?? String(e)}`));
    recordAuditedError(ctx, err, status.status);
    if (err instanceof PageNotFoundError) writePageNotFound(res, req.method === 'HEAD');
    else void writeStatus(req, res, query, status, warnings);
  };
  // The Express application serves the HTTP/1.1 requests outside the API paths (health, metrics,
  // OpenAPI, debug, service account issuer discovery) as one layer and an error handler. The API
  // paths, where nearly every request goes, and every HTTP/2 request skip it: Express swaps a
  // request's prototype for its own, which node:http2's Http2ServerRequest does not survive, and
  // its dispatch costs about 100 µs of CPU per request, more than a whole cached GET
  // (bench/express-dispatch-cost.ts).
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Three parameters: Express takes a four-parameter function for an error handler.
  app.use((req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void serve(req, res, next));
  app.use((err: unknown, req: IncomingMessage, res: ServerResponse, _next: (err?: unknown) => void) => handleError(err, req, res));
  const direct = (req: IncomingMessage, res: ServerResponse): void => void serve(req, res, (err) => handleError(err, req, res));
  return {
    serve: (req, res) => (req.httpVersionMajor === 2 || isApiPath(req.url ?? '') ? direct(req, res) : app(req, res)),
  };
}

/** Whether a request URL is under /api or /apis (resources, discovery, aggregated group versions). */
function isApiPath(url: string): boolean {
  return url.startsWith('/api') && (url.length === 4 || url[4] === '/' || url[4] === '?' || (url[4] === 's' && (url.length === 5 || url[5] === '/' || url[5] === '?')));
}
