/**
 * GET of one object: resourceVersion "" reads the latest, "0" any, N not older than N.
 */
import { methodNotAllowed } from './method-not-allowed.js';
import { outputFor, respondObject, type Handler } from './common.js';
import { parseGetOptions } from './options.js';

/** Serves get. */
export const getHandler: Handler = async (h) => {
  const target = outputFor(h);
  const storage = h.scope.storage;
  if (!storage.get) throw methodNotAllowed();
  const obj = await storage.get(h.ctx, h.ctx.requestInfo.name, parseGetOptions(h.query));
  await respondObject(h, target, 200, obj);
};
