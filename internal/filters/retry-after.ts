/**
 * The shutdown retry-after filter (kube's WithRetryAfter), on with --shutdown-send-retry-after:
 * once the server stops accepting new requests (the shutdown delay has elapsed) and until the
 * in-flight ones have drained and the listener closes, every new request is answered 429 with
 * `Retry-After: 5` and `Connection: close` (on HTTP/2 a GOAWAY), so clients retry elsewhere over a new connection.
 * Health probes, metrics scrapes and the server's own loopback requests are still served.
 */
import type { IncomingMessage } from 'node:http';
import type { ServerLifecycle } from '../server/lifecycle/interface.js';
import { closeConnectionAfter } from '../server/serving/protocol.js';
import type { Filter } from './interface.js';

const message = 'The apiserver is shutting down, please try again later.\n';
/** Health probes and metrics scraping are never turned away. */
const exemptPathPrefixes = ['/readyz', '/livez', '/healthz', '/metrics'];

/**
 * Whether req is served even while draining (kube's isRequestExemptFromRetryAfter): its path is a
 * health or metrics path, or it comes from the server itself (`kube-apiserver/` user agent). The
 * wait-group filter must exempt exactly the same requests, or the drain could wait forever.
 */
export function isRequestExemptFromRetryAfter(req: IncomingMessage, path: string): boolean {
  if (req.headers['user-agent']?.startsWith('kube-apiserver/')) return true;
  for (const prefix of exemptPathPrefixes) if (path.startsWith(prefix)) return true;
  return false;
}

/** Builds the filter; undefined without --shutdown-send-retry-after. */
export function withRetryAfter(lifecycle: ServerLifecycle): Filter | undefined {
  if (!lifecycle.sendRetryAfter) return undefined;
  const notAccepting = lifecycle.signals.notAcceptingNewRequest;
  return (req, res, state) => {
    if (!notAccepting.signaled || isRequestExemptFromRetryAfter(req, state.path)) return;
    // Go's http.Error, after kube's Connection and Retry-After headers.
    res.statusCode = 429;
    closeConnectionAfter(req, res);
    res.setHeader('Retry-After', '5');
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.end(message);
  };
}
