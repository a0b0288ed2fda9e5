/**
 * The shape of a filter of the handler chain (internal/server/chain.ts assembles them in order).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestState } from './request-context.js';

/**
 * Runs on each request in chain order, after the request context and the timeout are attached.
 * May fill in the request context (the user) and set response headers; throws a StatusError to
 * answer the request, which then goes no further. A filter that answers a request itself (a CORS
 * preflight) ends the response; the chain stops at a response whose headers were sent.
 */
export type Filter = (req: IncomingMessage, res: ServerResponse, state: RequestState) => void | Promise<void>;

/**
 * A filter that must wrap the rest of the chain rather than run before it (the tracing filter,
 * whose span is the context of everything after it): runs inner (the filter at its place in the
 * chain) and then rest, inside whatever scope it sets up. rest runs the following filters and
 * the handler; it is not called when inner answered the request or threw.
 */
export type FilterScope = (req: IncomingMessage, res: ServerResponse, state: RequestState, inner: Filter, rest: () => Promise<void>) => Promise<void>;
