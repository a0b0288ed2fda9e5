/**
 * kube-apiserver's graceful termination (genericapiserver.go RunWithContext), step by step:
 *
 *   ShutdownInitiated           /readyz fails; the pre-shutdown hooks run
 *   (--shutdown-delay-duration) everything else is served as before
 *   AfterShutdownDelayDuration
 *   NotAcceptingNewRequest      after the pre-shutdown hooks too: the in-flight wait group admits
 *                               nothing more (503); without --shutdown-send-retry-after the
 *                               listener closes now, with it new requests get 429 instead
 *   InFlightRequestsDrained     every non-long-running request finished (each bounded by
 *                               --request-timeout) and the watches drained within
 *                               --shutdown-watch-termination-grace-period (or were not waited for)
 *   HTTPServerStoppedListening  with --shutdown-send-retry-after the listener closes only now
 *
 * Closing the listener is Go's Server.Shutdown: idle connections close, busy ones close after
 * their response, and the wait for them is bounded by --request-timeout (2s with
 * --shutdown-send-retry-after). What is still open at the very end (watches without a grace
 * period) is cut.
 */
import type { Socket } from 'node:net';
import type { Logger } from '../../observability/logging.js';
import { closeConnectionAfter } from '../serving/protocol.js';
import type { ServerLifecycle } from './interface.js';
import type { LifecycleSignal } from './signals.js';

/** What the shutdown drives; callbacks run at kube's points of the sequence. */
export interface GracefulShutdownDeps {
  readonly lifecycle: ServerLifecycle;
  readonly server: ClosableListener;
  /** Every open connection of server. */
  readonly sockets: ReadonlySet<Socket>;
  /** --shutdown-delay-duration. */
  readonly delayMs: number;
  /** --shutdown-watch-termination-grace-period (0: watches are not waited for). */
  readonly watchGraceMs: number;
  /** --request-timeout: kube's ShutdownTimeout, the bound on waiting for connections to close. */
  readonly requestTimeoutMs: number;
  readonly log: Logger;
  /** The pre-shutdown hooks: run at ShutdownInitiated, concurrently with the delay. */
  readonly preShutdown?: () => void | Promise<void>;
  /** Runs when the HTTP server is told to stop (kube cancels the post-start hooks' context then). */
  readonly onStopHttpServer?: () => void;
  /** Runs once in-flight requests have drained, before the listener closes in retry-after mode (the audit backend's flush). */
  readonly onDrained?: () => void | Promise<void>;
  /** Runs right before the connections still open at the end are cut. */
  readonly onCut?: () => void;
}

/**
 * The listener as the shutdown closes it (internal/server/serving/listener.ts): close stops
 * listening, tells HTTP/2 clients GOAWAY and calls back once every connection has closed;
 * closeIdleConnections closes the HTTP/1.1 connections between requests.
 */
export interface ClosableListener {
  close(callback: () => void): void;
  closeIdleConnections(): void;
}

/** The bound on waiting for connections with --shutdown-send-retry-after (kube's 2s). */
const retryAfterShutdownTimeoutMs = 2000;
/** Go's Server.Shutdown polls for idle connections starting at 1ms, doubling up to 500ms. */
const maxPollMs = 500;

/** Runs the shutdown; resolves when nothing is served any more. Call once. */
export async function runGracefulShutdown(deps: GracefulShutdownDeps): Promise<void> {
  const { lifecycle, log } = deps;
  const { signals } = lifecycle;
  const event = (s: LifecycleSignal): void => {
    s.signal();
    log.v(1, '[graceful-termination] shutdown event', { name: s.name });
  };

  event(signals.shutdownInitiated);
  const shutdownTimeoutMs = lifecycle.sendRetryAfter ? retryAfterShutdownTimeoutMs : deps.requestTimeoutMs;
  if (lifecycle.sendRetryAfter) log.v(1, '[graceful-termination] using HTTP Server shutdown timeout', { shutdownTimeout: `${shutdownTimeoutMs / 1000}s` });
  const preShutdown = (async () => {
    try {
      await deps.preShutdown?.();
    } catch (err) {
      log.error(`pre-shutdown hooks failed: ${(err as Error).message}`);
    }
    signals.preShutdownHooksStopped.signal();
    log.v(1, '[graceful-termination] pre-shutdown hooks completed', { name: signals.preShutdownHooksStopped.name });
  })();
  if (deps.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, deps.delayMs));
  event(signals.afterShutdownDelayDuration);
  await preShutdown;
  event(signals.notAcceptingNewRequest);

  let httpStopped: ListenerClose | undefined;
  const stopHttpServer = (): void => {
    deps.onStopHttpServer?.();
    httpStopped = closeListener(deps, shutdownTimeoutMs, () => event(signals.httpServerStoppedListening));
  };
  if (!lifecycle.sendRetryAfter) stopHttpServer();

  const requestsDrained = lifecycle.requests.wait().then(() => log.v(1, '[graceful-termination] in-flight non long-running request(s) have drained'));
  const watchesDrained = (async () => {
    if (deps.watchGraceMs <= 0 || !lifecycle.watches) {
      log.v(1, '[graceful-termination] not going to wait for active watch request(s) to drain');
      return;
    }
    const result = await lifecycle.watches.drain(deps.watchGraceMs);
    log.v(1, '[graceful-termination] active watch request(s) have drained', { duration: `${deps.watchGraceMs / 1000}s`, ...result });
  })();
  await Promise.all([requestsDrained, watchesDrained]);
  event(signals.inFlightRequestsDrained);
  try {
    await deps.onDrained?.();
  } catch (err) {
    log.error(`shutting down after the drain failed: ${(err as Error).message}`);
  }

  if (lifecycle.sendRetryAfter) stopHttpServer();
  const listener = httpStopped as ListenerClose;
  if (!(await listener.settled)) {
    // kube's process exits here, cutting what is left (watches, slow clients).
    deps.onCut?.();
    lifecycle.watches?.abortAll();
    for (const s of deps.sockets) s.destroy();
    await listener.closed;
  }
  log.v(1, '[graceful-termination] apiserver is exiting');
}

/** A closing listener: settled says, within the timeout, whether every connection closed. */
interface ListenerClose {
  readonly settled: Promise<boolean>;
  /** Resolves when the last connection has closed. */
  readonly closed: Promise<void>;
}

/**
 * Stops listening and waits, at most timeoutMs, for every connection to close: idle ones close at
 * once, busy ones after their response (which says `Connection: close`, or on HTTP/2 after GOAWAY).
 */
function closeListener(deps: GracefulShutdownDeps, timeoutMs: number, stoppedListening: () => void): ListenerClose {
  const { server, lifecycle } = deps;
  lifecycle.requests.closeConnections = true;
  for (const res of lifecycle.requests.responses()) if (!res.headersSent) closeConnectionAfter(res.req, res);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  stoppedListening();
  const settled = new Promise<boolean>((resolve) => {
    let pollMs = 1;
    let poll: NodeJS.Timeout;
    const tick = (): void => {
      // A response already under way when the listener closed leaves its connection idle after it.
      server.closeIdleConnections();
      pollMs = Math.min(pollMs * 2, maxPollMs);
      poll = setTimeout(tick, pollMs);
    };
    poll = setTimeout(tick, pollMs);
    const deadline = setTimeout(() => {
      clearTimeout(poll);
      resolve(false);
    }, timeoutMs);
    void closed.then(() => {
      clearTimeout(poll);
      clearTimeout(deadline);
      resolve(true);
    });
  });
  return { settled, closed };
}
