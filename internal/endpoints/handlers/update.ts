/**
 * PUT: replaces an object. A resourceVersion in the body makes it conditional (409 when stale);
 * without one it is unconditional where the resource allows that. On a missing object it creates
 * only where the resource allows create-on-update. 200, or 201 when it created.
 */
import { methodNotAllowed } from './method-not-allowed.js';
import { admissionAttributes, decodeObjectBody, outputFor, respondObject, validatingAdmission, type Handler } from './common.js';
import { writeOptionsFor } from './create.js';
import { toExternal, toInternal } from '../scope.js';
import { trackUpdate } from './managed-fields.js';
import { parseWriteOptions } from './write-options.js';

/** Serves update. */
export const updateHandler: Handler = async (h) => {
  const target = outputFor(h);
  const storage = h.scope.storage;
  if (!storage.update) throw methodNotAllowed();
  const opts = parseWriteOptions(h.query, 'UpdateOptions');
  const dryRun = opts.dryRun;
  const body = await decodeObjectBody(h, opts.fieldValidation);
  h.ctx.audit?.setRequestObject(body);
  const name = h.ctx.requestInfo.name;
  const result = await storage.update(
    h.ctx,
    name,
    {
      updatedObject: async (ctx, old) => {
        const obj = toInternal(h.scope, trackUpdate(h, opts, old ? toExternal(h.scope, old) : undefined, structuredClone(body)));
        await h.admission.admit(admissionAttributes(h, old ? 'UPDATE' : 'CREATE', name, obj, old, dryRun), ctx);
        return obj;
      },
    },
    writeOptionsFor(opts),
    validatingAdmission(h, 'UPDATE', dryRun),
  );
  await respondObject(h, target, result.created ? 201 : 200, result.object);
};
