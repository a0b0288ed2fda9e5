/**
 * withRequestContext: the first filter. Parses the URL and the request info once, creates the
 * typed RequestContext (aborted when the client goes away) and makes it available to every later
 * filter and handler through contextOf(req).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { anonymousUser, type RequestContext } from '../request/context.js';
import { parseRequestInfo } from '../request/request-info.js';

interface RequestState {
  readonly ctx: RequestContext;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly abort: AbortController;
}

const states = new WeakMap<IncomingMessage, RequestState>();

/** The state withRequestContext attached to req; throws when the filter did not run (a wiring bug). */
export function stateOf(req: IncomingMessage): RequestState {
  const s = states.get(req);
  if (!s) throw new Error('request context missing: withRequestContext must run first');
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
    path = decodeURIComponent(rawPath);
  } catch {
    path = rawPath;
  }
  return { path, query: new URLSearchParams(q < 0 ? '' : url.slice(q + 1)) };
}

/** Express middleware factory for the request context. */
export function withRequestContext() {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const { path, query } = splitUrl(req.url ?? '/');
    const abort = new AbortController();
    const ctx: RequestContext = {
      requestInfo: parseRequestInfo(req.method ?? 'GET', path, query),
      user: anonymousUser,
      signal: abort.signal,
      warnings: [],
      userAgent: req.headers['user-agent'] ?? '',
      receivedAt: Date.now(),
    };
    res.once('close', () => abort.abort());
    states.set(req, { ctx, path, query, abort });
    next();
  };
}
