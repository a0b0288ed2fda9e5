/**
 * DELETE of a collection: every object the selectors match is deleted (or marked) with the given
 * DeleteOptions; answers the list of what was deleted.
 */
import { outputFor, respondList, validatingAdmission, type Handler } from './common.js';
import { readDeleteOptions } from './delete.js';
import { methodNotAllowed } from './method-not-allowed.js';
import { parseListOptions } from './options.js';

/** Serves deletecollection. */
export const deleteCollectionHandler: Handler = async (h) => {
  const target = outputFor(h, true);
  const storage = h.scope.storage;
  if (!storage.deleteCollection) throw methodNotAllowed();
  const listOpts = parseListOptions(h.query, h.scope.selectableFields, h.scope.namespaced, false);
  const deleteOpts = await readDeleteOptions(h);
  const deleted = await storage.deleteCollection(h.ctx, listOpts, deleteOpts, validatingAdmission(h, 'DELETE', deleteOpts.dryRun, deleteOpts));
  await respondList(h, target, deleted, {});
};
