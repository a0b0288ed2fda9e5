/**
 * The handler chain: the filters in the order they run, then the health endpoints, discovery and
 * the resource dispatcher, and last the error handler that turns anything thrown into a Status.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { newPathNotFound } from '../apierrors/factories.js';
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
import { withImpersonation } from '../filters/impersonation.js';
import type { Filter } from '../filters/interface.js';
import { attachRequestContext, stateOf } from '../filters/request-context.js';
import { armTimeout } from '../filters/timeout.js';
import { observeAuthentication } from '../observability/authentication-metrics.js';
import type { Logger } from '../observability/logging.js';
import type { ServerMetrics } from '../observability/metrics.js';
import type { RequestContext } from '../request/context.js';
import { serveHealth, type HealthEndpoints } from './health.js';

/** What the chain serves. */
export interface ChainDeps {
  readonly health: HealthEndpoints;
  readonly discovery: DiscoveryHandler;
  readonly dispatcher: ResourceDispatcher;
  readonly openapi: OpenApiV3Handler;
  readonly openapiV2: OpenApiV2Handler;
  readonly requestTimeoutMs: number;
  readonly log: Logger;
  readonly metrics: ServerMetrics;
  /** Who made a request: every configured method as one union (with the anonymous fallback). */
  readonly authenticator: Authenticator;
  /** May they: the --authorization-mode union. */
  readonly authorizer: Authorizer;
  /** --strict-transport-security-directives (empty: no HSTS header). */
  readonly hstsDirectives?: readonly string[];
  /** --cors-allowed-origins (empty: CORS off). */
  readonly corsAllowedOrigins?: readonly string[];
  /** Service account issuer discovery (absent when the issuer cannot be discovered). */
  readonly openidMetadata?: OpenIdMetadataHandler;
  /** Auditing (absent when off: no policy or no backend); the Audit-Id header is sent regardless. */
  readonly audit?: AuditFilterDeps;
}

/** Builds the Express application. */
export function buildChain(deps: ChainDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  // The filters after the request context and the timeout, in the order they run (kube's
  // DefaultBuildHandlerChain read outside-in): HSTS first, so every answer carries its header,
  // errors included; CORS before authentication, so a preflight (which carries no credentials) is
  // answered without them; authentication names the user; impersonation, which must know who
  // asks, may swap in the user they act as; authorization, which needs the final user, decides
  // last, right before the handler. HSTS and CORS are absent unless their flags are set. Audit
  // init comes first (every answer carries its Audit-Id); the audit filter right after
  // authentication, which it needs for the user (its 401s are audited on their own), and before
  // impersonation, so that the event's user is who asked and impersonatedUser whom they act as.
  const filters: readonly Filter[] = [
    withAuditInit(deps.audit !== undefined),
    withHSTS(deps.hstsDirectives ?? []),
    withCORS(deps.corsAllowedOrigins ?? []),
    withFailedAuthenticationAudit(withAuthentication({ authenticator: deps.authenticator, log: deps.log, observe: observeAuthentication(deps.metrics) }), deps.audit),
    withAudit(deps.audit),
    withImpersonation({ authorizer: deps.authorizer, log: deps.log }),
    withAuthorization({ authorizer: deps.authorizer, observe: observeAuthorization(deps.metrics) }),
  ].filter((f): f is Filter => f !== undefined);

  // One Express layer runs the filters in order (the request context first: everything after
  // reads it; the timeout wraps everything that does work, never long-running requests) and then
  // routes: resource requests first, the hot path, then health, metrics, discovery and OpenAPI.
  app.use(async (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => {
    try {
      const state = attachRequestContext(req, res);
      armTimeout(req, res, state, deps.requestTimeoutMs);
      for (const filter of filters) {
        const pending = filter(req, res, state);
        if (pending) await pending;
        if (res.headersSent) return;
      }
      const { path, query, ctx } = state;
      if (ctx.requestInfo.isResourceRequest) {
        await deps.dispatcher.handle(req, res, ctx, query);
        return;
      }
      if (await serveHealth(deps.health, req, res, path, query)) return;
      if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
        const text = await deps.metrics.text();
        res.statusCode = 200;
        res.setHeader('Content-Type', deps.metrics.registry.contentType);
        res.end(req.method === 'HEAD' ? undefined : text);
        return;
      }
      if (deps.openidMetadata?.serve(req, res, path)) return;
      if (await deps.discovery.handle(req, res, path, query)) return;
      if (await deps.openapi.handle(req, res, path, query)) return;
      if (await deps.openapiV2.handle(req, res, path, query)) return;
      if (path.startsWith('/api/') || path.startsWith('/apis/') || path === '/api' || path === '/apis') throw newPathNotFound();
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.end('404 page not found\n');
    } catch (err) {
      next(err);
    }
  });

  // The error handler: a StatusError is the client's answer; anything else is an internal error
  // (logged with its stack) — never an HTML page or an empty body.
  app.use((err: unknown, req: IncomingMessage, res: ServerResponse, _next: (err?: unknown) => void) => {
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
    void writeStatus(req, res, query, status, warnings);
  });
  return app;
}
