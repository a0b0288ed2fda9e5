/**
 * POST: decode, mutating admission, then the store (defaulting, validation, validating
 * admission, the write). Answers 201 Created with the stored object.
 */
import { methodNotAllowed } from './method-not-allowed.js';
import { admissionAttributes, decodeObjectBody, outputFor, respondObject, validatingAdmission, type Handler } from './common.js';
import { parseDryRun } from './options.js';

/** Serves create. */
export const createHandler: Handler = async (h) => {
  const target = outputFor(h);
  const storage = h.scope.storage;
  if (!storage.create) throw methodNotAllowed();
  const dryRun = parseDryRun(h.query.getAll('dryRun'));
  const obj = await decodeObjectBody(h);
  await h.admission.admit(admissionAttributes(h, 'CREATE', obj.metadata.name ?? '', obj, undefined, dryRun), h.ctx);
  const created = await storage.create(h.ctx, obj, { dryRun, ...fieldManager(h.query) }, validatingAdmission(h, 'CREATE', dryRun));
  await respondObject(h, target, 201, created);
};

/** The fieldManager query parameter, when given. */
export function fieldManager(query: URLSearchParams): { fieldManager?: string } {
  const fm = query.get('fieldManager');
  return fm ? { fieldManager: fm } : {};
}
