/**
 * The in-flight wait group filter (kube's WithWaitGroup): every non-long-running request joins the
 * server's wait group until its response closes, so a graceful shutdown can wait for it. Once the
 * shutdown waits, new requests are turned away with 503 and `Retry-After: 1` (a client retrying
 * quickly likely reaches another server); the requests the retry-after filter exempts are still
 * served. Once the listener has closed, every response also closes its connection (HTTP/2: GOAWAY).
 */
import type { ServerResponse } from 'node:http';
import type { RequestWaitGroup } from '../server/lifecycle/request-wait-group.js';
import { closeConnectionAfter } from '../server/serving/protocol.js';
import type { Filter } from './interface.js';
import { isRequestExemptFromRetryAfter } from './retry-after.js';
import { isLongRunning } from './timeout.js';

/** kube's waitGroupWriteRetryAfterToResponse body: a v1 Status, always JSON. */
const shuttingDownStatus = `${JSON.stringify({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'apiserver is shutting down',
  reason: 'ServiceUnavailable',
  code: 503,
})}\n`;

/** Answers 503 ServiceUnavailable "apiserver is shutting down" with `Retry-After: 1`. */
export function writeShuttingDown(res: ServerResponse): void {
  res.statusCode = 503;
  res.setHeader('Retry-After', '1');
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(shuttingDownStatus);
}

/** Builds the filter over the server's wait group. */
export function withWaitGroup(group: RequestWaitGroup): Filter {
  return (req, res, state) => {
    if (group.closeConnections) closeConnectionAfter(req, res);
    if (isLongRunning(state.ctx.requestInfo)) return;
    if (group.add(res)) {
      state.onClose(() => group.done(res));
      return;
    }
    if (isRequestExemptFromRetryAfter(req, state.path)) return;
    writeShuttingDown(res);
  };
}
