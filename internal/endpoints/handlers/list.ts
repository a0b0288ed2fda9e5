/**
 * LIST of a collection: selectors, paging with limit/continue over one snapshot, and the
 * resourceVersion/resourceVersionMatch rules; a list with watch=true is a watch.
 */
import { methodNotAllowed } from './method-not-allowed.js';
import { outputFor, respondList, type Handler } from './common.js';
import { parseListOptions } from './options.js';
import { serveWatch } from './watch.js';

/** Serves list (and watch when asked). */
export const listHandler: Handler = async (h) => {
  const opts = parseListOptions(h.query, h.scope.selectableFields, h.scope.namespaced, h.watchPath, h.watchList ?? false);
  if (opts.watch) {
    await serveWatch(h, opts);
    return;
  }
  const target = outputFor(h, true);
  const storage = h.scope.storage;
  if (!storage.list) throw methodNotAllowed();
  const result = await storage.list(h.ctx, opts);
  // The result itself: a JSON answer may write its encodedItems without decoding items.
  await respondList(h, target, result, {
    resourceVersion: result.resourceVersion,
    ...(result.continueToken ? { continue: result.continueToken } : {}),
    ...(result.remainingItemCount !== undefined ? { remainingItemCount: result.remainingItemCount } : {}),
  });
};
