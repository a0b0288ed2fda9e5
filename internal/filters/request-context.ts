/**
 * The request context filter: the first thing every request meets. Parses the URL and the request
 * info once, creates the typed RequestContext and makes it available to every later filter and
 * handler through stateOf(req) / contextOf(req).
 *
 * The context's signal is aborted when the response closes (the request finished or the client
 * went away) or the request times out. Its AbortController is made only when something reads the
 * signal: most reads never do, and a controller per request (and the DOMException its abort makes)
 * is measurable on the cached-GET path.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { anonymousUser, type RequestContext } from '../request/context.js';
import { parseRequestInfo } from '../request/request-info.js';

/** What the filters keep per request. */
export interface RequestState {
  readonly ctx: RequestContext;
  readonly path: string;
  readonly query: URLSearchParams;
  /** Aborts the context's signal (idempotent). */
  abort(): void;
  /** Runs fn once when the response closes (after it finished, or when the client left). */
  onClose(fn: () => void): void;
}

const states = new WeakMap<IncomingMessage, RequestState>();

/** The reason every request signal aborts with: made once, not per request. */
const requestEnded = new DOMException('the request ended or timed out', 'AbortError');

/** The state attachRequestContext attached to req; throws when it did not run (a wiring bug). */
export function stateOf(req: IncomingMessage): RequestState {
  const s = states.get(req);
  if (!s) throw new Error('request context missing: attachRequestContext must run first');
  return s;
}

/** The RequestContext of req. */
export function contextOf(req: IncomingMessage): RequestContext {
  return stateOf(req).ctx;
}

function splitUrl(url: string): { path: string; query: URLSearchParams } {
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  let path: string;
  try {
    path = rawPath.includes('%') ? decodeURIComponent(rawPath) : rawPath;
  } catch {
    path = rawPath;
  }
  return { path, query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)) };
}

/** Creates req's context and state (the first filter). */
export function attachRequestContext(req: IncomingMessage, res: ServerResponse): RequestState {
  const { path, query } = splitUrl(req.url ?? '/');
  let controller: AbortController | undefined;
  let aborted = false;
  const closers: Array<() => void> = [];
  const ctx: RequestContext = {
    requestInfo: parseRequestInfo(req.method ?? 'GET', path, query),
    user: anonymousUser,
    get signal(): AbortSignal {
      if (!controller) {
        controller = new AbortController();
        if (aborted) controller.abort(requestEnded);
      }
      return controller.signal;
    },
    warnings: [],
    userAgent: req.headers['user-agent'] ?? '',
    receivedAt: Date.now(),
  };
  const abort = (): void => {
    if (aborted) return;
    aborted = true;
    controller?.abort(requestEnded);
  };
  res.once('close', () => {
    abort();
    for (const fn of closers) fn();
  });
  const state: RequestState = { ctx, path, query, abort, onClose: (fn) => closers.push(fn) };
  states.set(req, state);
  return state;
}
