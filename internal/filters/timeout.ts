/**
 * The timeout filter: a request that is not long-running (watches, proxy, exec, attach, log and
 * port-forward are) must finish within --request-timeout, or within ?timeout= when shorter;
 * otherwise it is answered 504 Timeout and its context is aborted.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatusError } from '../apierrors/status-error.js';
import { parseGoDuration } from '../server/options/duration.js';
import { writeStatus } from '../endpoints/negotiation/writer.js';
import type { RequestInfo } from '../request/request-info.js';
import type { RequestState } from './request-context.js';

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
    const err = new StatusError(504, 'Timeout', 'Timeout: request did not complete within requested timeout - context deadline exceeded', {});
    void writeStatus(req, res, state.query, err);
  }, timeoutMs);
  timer.unref();
  state.onClose(() => clearTimeout(timer));
}
