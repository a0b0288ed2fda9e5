/**
 * The guard on handlers that work on a request body. Go's stack grows, so kube walks any document
 * its decoder let through (up to 10,000 levels); V8's stack is fixed, and a walk over data nested a
 * few thousand levels deep (a merge, a diff of managed fields) overflows it. Such a request is the
 * client's doing: it is answered 400 BadRequest, never 500.
 */
import { newBadRequest } from '../../apierrors/factories.js';
import { isStackOverflow } from '../negotiation/nesting-depth.js';
import type { Handler } from './common.js';

/** Wraps handler so that a call stack overflow while it serves becomes 400 BadRequest. */
export function guardNesting(handler: Handler): Handler {
  return async (h) => {
    try {
      await handler(h);
    } catch (err) {
      if (isStackOverflow(err)) throw newBadRequest('the request body is nested too deeply to be processed: Maximum call stack size exceeded');
      throw err;
    }
  };
}
