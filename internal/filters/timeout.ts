/**
 * The timeout filter: a request that is not long-running (watches, proxy, exec, attach, log and
 * port-forward are) must finish within --request-timeout, or within ?timeout= when shorter;
 * otherwise its context is aborted and it is answered 504 Timeout, or, when its answer had already
 * started, its connection is aborted. Nothing the handler wrote to storage is undone or retried.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatusError } from '../apierrors/status-error.js';
import { parseGoDuration } from '../server/options/duration.js';
import { writeStatus } from '../endpoints/negotiation/writer.js';
import type { RequestInfo } from '../request/request-info.js';
import type { RequestState } from './request-context.js';

/** kube's NewTimeoutError for a request that ran past its deadline (retryAfterSeconds 0: empty details). */
const timeoutError = new StatusError(504, 'Timeout', 'Timeout: request did not complete within requested timeout - context deadline exceeded', {});

const longRunningVerbs = new Set(['watch', 'proxy']);
const longRunningSubresources = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** kube's default long-running request check (profiles under /debug/pprof/ run as long as they are asked to). */
export function isLongRunning(info: RequestInfo): boolean {
  return longRunningVerbs.has(info.verb) || longRunningSubresources.has(info.subresource) || (!info.isResourceRequest && info.path.startsWith('/debug/pprof/'));
}

/**
 * Arms the request timeout of a request whose context attachRequestContext made; requestTimeoutMs
 * is --request-timeout. Long-running requests get none.
 */
export function armTimeout(req: IncomingMessage, res: ServerResponse, state: RequestState, requestTimeoutMs: number): void {
  const info = state.ctx.requestInfo;
  if (isLongRunning(info)) return;
  let timeoutMs = requestTimeoutMs;
  const asked = state.query.get('timeout');
  if (asked) {
    try {
      const ms = parseGoDuration(asked);
      if (ms > 0 && ms < timeoutMs) timeoutMs = ms;
    } catch {
      // kube ignores an unparseable ?timeout= in this filter; the handler's own parsing reports it.
    }
  }
  state.ctx.deadline = Date.now() + timeoutMs;
  const timer = setTimeout(() => {
    if (res.writableEnded) return;
    state.abort();
    // An answer already under way cannot become a 504: kube aborts the connection (the handler's
    // ErrAbortHandler: HTTP/1.1 closes it, HTTP/2 resets the stream), so the client sees a broken
    // answer rather than a complete-looking one. Whatever the handler had done stays done.
    if (res.headersSent) {
      res.destroy();
      return;
    }
    void writeStatus(req, res, state.query, timeoutError);
  }, timeoutMs);
  timer.unref();
  state.onClose(() => clearTimeout(timer));
}
