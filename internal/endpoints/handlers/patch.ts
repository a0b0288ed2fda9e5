/**
 * PATCH: applies a JSON patch or a JSON merge patch to the current object, inside the store's
 * compare-and-swap loop so a lost race re-applies the patch to fresh state. A resourceVersion in
 * the patch result makes the update conditional. Strategic merge and apply patches answer 415
 * until they are implemented.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { newBadRequest, newNotFound, newUnsupportedMediaType } from '../../apierrors/factories.js';
import { parseBodyStrict, readBody } from '../negotiation/body.js';
import { goQuote } from '../../validation/field-error.js';
import { parseMediaType } from '../negotiation/media-type.js';
import { applyJsonPatch, decodeJsonPatch, jsonPatchFieldMessages } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { toExternal } from '../scope.js';
import { admissionAttributes, decodeExternal, outputFor, respondObject, validatingAdmission, type Handler } from './common.js';
import { writeOptionsFor } from './create.js';
import { methodNotAllowed } from './method-not-allowed.js';
import { parseWriteOptions } from './write-options.js';

/** The patch types kube accepts, in the order its 415 lists them. */
const patchTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

/** Serves patch. */
export const patchHandler: Handler = async (h) => {
  const target = outputFor(h);
  const storage = h.scope.storage;
  if (!storage.update) throw methodNotAllowed();
  const mt = parseMediaType(h.req.headers['content-type'] ?? '');
  const patchType = mt ? `${mt.type}/${mt.subtype}` : '';
  if (patchType !== 'application/json-patch+json' && patchType !== 'application/merge-patch+json') {
    throw newUnsupportedMediaType(patchTypes);
  }
  const opts = parseWriteOptions(h.query, 'PatchOptions', false);
  const dryRun = opts.dryRun;
  const raw = await readBody(h.req);
  if (raw.length === 0) throw newBadRequest('the body of the request was empty');
  const parsed = parseBodyStrict(raw, 'json');
  const patchValue = parsed.value;
  const ops = patchType === 'application/json-patch+json' ? decodeJsonPatch(patchValue) : undefined;
  if (!ops && (typeof patchValue !== 'object' || patchValue === null || Array.isArray(patchValue))) {
    throw newBadRequest('json: cannot unmarshal array into Go value of type map[string]interface {}');
  }
  const preMessages = ops ? jsonPatchFieldMessages(ops, parsed.duplicateFields) : parsed.duplicateFields.map((p) => `duplicate field ${goQuote(p)}`);
  const name = h.ctx.requestInfo.name;
  const result = await storage.update(
    h.ctx,
    name,
    {
      updatedObject: async (ctx, old) => {
        if (!old) throw newNotFound(h.scope.gr, name);
        const current = toExternal(h.scope, old);
        const patched = ops ? applyJsonPatch(current, ops) : applyMergePatch(current, patchValue);
        // kube decodes the patched object through maps, so its keys (and unknown fields) come out sorted.
        const obj: KubeObject = decodeExternal(h, { value: patched, preMessages, sortKeys: true }, opts.fieldValidation);
        await h.admission.admit(admissionAttributes(h, 'UPDATE', name, obj, old, dryRun), ctx);
        return obj;
      },
    },
    writeOptionsFor(opts),
    validatingAdmission(h, 'UPDATE', dryRun),
  );
  await respondObject(h, target, result.created ? 201 : 200, result.object);
};
