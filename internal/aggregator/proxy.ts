/**
 * The aggregator's proxy (kube's proxyHandler in handler_proxy.go): a request under
 * /apis/<group>/<version> of a service-backed APIService, already authenticated and authorized,
 * goes to the extension server over HTTPS with the front-proxy client certificate and the
 * caller's identity in X-Remote-User/-Uid/-Group/-Extra-*; the caller's credentials stay behind.
 * Not Available is a plain-text 503 "service unavailable"; a backend that cannot be reached is a
 * 503 with the error; a redirect from the backend is a 502 under
 * --aggregator-reject-forwarding-redirect. Answers stream both ways without buffering.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { request } from 'node:https';
import type { Logger } from '../observability/logging.js';
import type { RequestContext } from '../request/context.js';
import type { APIServiceIndex } from './api-services.js';
import { setAuthProxyHeaders } from './auth-proxy-headers.js';
import type { AggregatorProxy, APIServiceView } from './interface.js';
import { describeRequestError } from './request-errors.js';
import type { ServiceResolver } from './service-resolver.js';
import type { BackendTransports } from './transport.js';
import { proxyUpgrade } from './upgrade.js';

/** Headers of one connection (RFC 7230 6.1), never forwarded either way. */
export const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const corsHeaders = new Set(['access-control-allow-credentials', 'access-control-allow-headers', 'access-control-allow-methods', 'access-control-allow-origin']);
const redirectRefusal = 'the backend attempted to redirect this request, which is not permitted';

/** Go's http.Error: a plain-text body ending with a newline. */
export function plainError(res: ServerResponse, code: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.statusCode = code;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(`${message}\n`);
}

/** The group and version a path is under, for /apis/<group>/<version>[/...]. */
export function groupVersionOf(path: string): { group: string; version: string } | undefined {
  const m = /^\/apis\/([^/]+)\/([^/]+)(?:\/|$)/.exec(path);
  return m ? { group: m[1] as string, version: m[2] as string } : undefined;
}

/** The request headers the backend gets. */
export function forwardedHeaders(req: IncomingMessage, host: string, ctx: RequestContext, upgrade: boolean): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  const connectionTokens = new Set(
    String(req.headers.connection ?? '')
      .split(',')
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean),
  );
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'host') continue;
    if (!upgrade && (hopByHop.has(name) || connectionTokens.has(name))) continue;
    // Credentials were consumed here: the extension server trusts the front-proxy headers only.
    if (name === 'authorization' || name.startsWith('impersonate-')) continue;
    out[name] = value;
  }
  const remote = req.socket.remoteAddress ?? '';
  const prior = req.headers['x-forwarded-for'];
  out['x-forwarded-for'] = prior ? `${String(prior)}, ${remote}` : remote;
  out.host = host;
  setAuthProxyHeaders(out, ctx.user);
  return out;
}

/** Proxies requests of service-backed APIServices. */
export class AggregatorProxyHandler implements AggregatorProxy {
  constructor(
    private readonly deps: {
      readonly index: APIServiceIndex;
      readonly resolver: ServiceResolver;
      readonly transports: BackendTransports;
      readonly rejectForwardingRedirect: boolean;
      readonly log: Logger;
    },
  ) {}

  /** The service-backed APIService serving path, if any. */
  apiServiceFor(path: string): APIServiceView | undefined {
    const gv = groupVersionOf(path);
    if (!gv) return undefined;
    const api = this.deps.index.forGroupVersion(gv.group, gv.version);
    return api?.service ? api : undefined;
  }

  async serve(req: IncomingMessage, res: ServerResponse, path: string, ctx: RequestContext): Promise<boolean> {
    const api = this.apiServiceFor(path);
    if (!api) return false;
    if (!api.available) {
      plainError(res, 503, 'service unavailable');
      return true;
    }
    let backend;
    try {
      backend = this.deps.resolver.resolve(api.service as NonNullable<APIServiceView['service']>);
    } catch (err) {
      this.deps.log.error(`error resolving ${api.service?.namespace}/${api.service?.name}: ${(err as Error).message}`);
      plainError(res, 503, 'service unavailable');
      return true;
    }
    const agent = this.deps.transports.agentFor(api);
    // Only a connection the server handed over as an upgrade can be joined to the backend's;
    // otherwise the request is forwarded as an ordinary one.
    const upgrade = (req as IncomingMessage & { upgrade?: boolean }).upgrade === true && typeof req.headers.upgrade === 'string';
    const headers = forwardedHeaders(req, backend.host, ctx, upgrade);
    const target = `https://${backend.host}${req.url ?? path}`;
    if (upgrade) {
      await proxyUpgrade(req, res, target, { agent, headers, servername: backend.serverName }, this.deps.log);
      return true;
    }
    await new Promise<void>((resolve) => {
      let answered = false;
      const upstream = request(target, { method: req.method, agent, headers, servername: backend.serverName }, (answer) => {
        answered = true;
        const code = answer.statusCode ?? 502;
        if (this.deps.rejectForwardingRedirect && code >= 300 && code <= 399 && answer.headers.location) {
          answer.resume();
          res.statusCode = 502;
          res.setHeader('Content-Type', 'text/plain; charset=utf-8');
          res.setHeader('Content-Length', Buffer.byteLength(redirectRefusal));
          res.end(redirectRefusal);
          resolve();
          return;
        }
        const out: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !hopByHop.has(name) && !corsHeaders.has(name)) out[name] = value;
        res.writeHead(code, out);
        // Watches and logs stream: every chunk goes out as it comes.
        res.flushHeaders();
        // A proxied watch gives back its priority and fairness seats once the extension server
        // answers (that server queues the watch by its own configuration).
        ctx.watchInitialized?.();
        answer.pipe(res);
        answer.on('end', () => resolve());
        answer.on('error', () => {
          res.destroy();
          resolve();
        });
      });
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        if (answered) {
          res.destroy();
        } else {
          this.deps.log.error(`Error while proxying request: ${describeRequestError(err, target)}`);
          plainError(res, 503, describeRequestError(err, target));
        }
        resolve();
      });
      // A caller that goes away takes the backend request with it.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
        resolve();
      });
      req.pipe(upstream);
    });
    return true;
  }
}
