/**
 * POST: decode, mutating admission, then the store (defaulting, validation, validating
 * admission, the write). Answers 201 Created with the stored object. On a subresource
 * (serviceaccounts/<name>/token) the path names the parent and the storage answers with its result.
 */
import { methodNotAllowed } from './method-not-allowed.js';
import { admissionAttributes, decodeObjectBody, outputFor, respondObject, validatingAdmission, type Handler } from './common.js';
import type { WriteOptions } from '../../registry/interface.js';
import { toInternal } from '../scope.js';
import { trackUpdate } from './managed-fields.js';
import { parseWriteOptions, type ParsedWriteOptions } from './write-options.js';

/** Serves create. */
export const createHandler: Handler = async (h) => {
  const target = outputFor(h);
  const storage = h.scope.storage;
  if (!storage.create) throw methodNotAllowed();
  const opts = parseWriteOptions(h.query, 'CreateOptions');
  const dryRun = opts.dryRun;
  const body = await decodeObjectBody(h, opts.fieldValidation);
  h.ctx.audit?.setRequestObject(body);
  const obj = toInternal(h.scope, trackUpdate(h, opts, undefined, body));
  // A subresource's create is about the object its path names (the parent), not one in the body.
  const name = h.scope.subresource === '' ? (obj.metadata.name ?? '') : h.ctx.requestInfo.name;
  await h.admission.admit(admissionAttributes(h, 'CREATE', name, obj, undefined, dryRun), h.ctx);
  const created = await storage.create(h.ctx, obj, writeOptionsFor(opts), validatingAdmission(h, 'CREATE', dryRun));
  // A subresource may answer with a Status (pods/binding, pods/eviction): its code is the answer's.
  const code = created.kind === 'Status' && typeof created.code === 'number' ? created.code : 201;
  await respondObject(h, target, code, created);
};

/** The store's WriteOptions from parsed query options. */
export function writeOptionsFor(opts: ParsedWriteOptions): WriteOptions {
  return { dryRun: opts.dryRun, ...(opts.fieldManager ? { fieldManager: opts.fieldManager } : {}) };
}
