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
