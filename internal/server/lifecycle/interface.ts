/**
 * What the handler chain and the graceful shutdown share about a server's lifecycle.
 */
import type { RequestWaitGroup } from './request-wait-group.js';
import type { LifecycleSignals } from './signals.js';
import type { WatchWaitGroup } from './watch-wait-group.js';

/** One server's lifecycle state, made by startServer and read by the shutdown filters. */
export interface ServerLifecycle {
  readonly signals: LifecycleSignals;
  /** Non-long-running requests in flight (kube's WithWaitGroup counts them). */
  readonly requests: RequestWaitGroup;
  /** Active watches; present only with --shutdown-watch-termination-grace-period above zero. */
  readonly watches?: WatchWaitGroup;
  /** --shutdown-send-retry-after: new requests are answered 429 while in-flight ones drain. */
  readonly sendRetryAfter: boolean;
}
