/**
 * Watch termination during shutdown (kube's WithWatchTerminationDuringShutdown), on with
 * --shutdown-watch-termination-grace-period: each watch joins the server's watch wait group and
 * carries its own shutdown signal in its context, which the graceful shutdown aborts (at a limited
 * rate) so the watch ends cleanly. A watch arriving once the drain began is turned away with 503.
 */
import type { WatchWaitGroup } from '../server/lifecycle/watch-wait-group.js';
import type { Filter } from './interface.js';
import { writeShuttingDown } from './wait-group.js';

/** Builds the filter; undefined when watches are not waited for (no grace period). */
export function withWatchTerminationDuringShutdown(watches: WatchWaitGroup | undefined): Filter | undefined {
  if (!watches) return undefined;
  return (_req, res, state) => {
    if (state.ctx.requestInfo.verb !== 'watch') return;
    const termination = watches.add();
    if (!termination) {
      writeShuttingDown(res);
      return;
    }
    state.ctx.shutdownSignal = termination.signal;
    state.onClose(() => watches.done(termination));
  };
}
