/**
 * PATCH: JSON patch, JSON merge patch, strategic merge patch and server-side apply. The first
 * three are applied to the current object inside the store's compare-and-swap loop, so a lost
 * race re-applies the patch to fresh state; a resourceVersion in the result makes the update
 * conditional. Apply merges the configuration by field ownership and creates the object when it
 * does not exist (201).
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { newBadRequest, newNotFound, newUnsupportedMediaType } from '../../apierrors/factories.js';
import { goQuote } from '../../validation/field-error.js';
import { parseBodyStrict, readBody } from '../negotiation/body.js';
import { parseMediaType } from '../negotiation/media-type.js';
import { applyJsonPatch, checkJsonPatchStrict, decodeJsonPatch, jsonPatchFieldMessages } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { jsonPatchResultLiterals } from '../patch/json-patch-literals.js';
import { goJsonText } from '../patch/json-patch-node.js';
import { patchSchemaFor, StrategicPatchError, statusErrorForPatch, strategicMergePatch } from '../patch/strategic/index.js';
import { toExternal, toInternal } from '../scope.js';
import { admissionAttributes, decodeExternalObject, outputFor, respondObject, validatingAdmission, type DecodedInput, type Handler, type HandlerInput } from './common.js';
import { goSprintValue } from './patch-errors.js';
import { writeOptionsFor } from './create.js';
import { applyConfiguration, trackUpdate } from './managed-fields.js';
import { methodNotAllowed } from './method-not-allowed.js';
import { parseWriteOptions } from './write-options.js';

const jsonPatchType = 'application/json-patch+json';
const mergePatchType = 'application/merge-patch+json';
const strategicPatchType = 'application/strategic-merge-patch+json';
const applyPatchType = 'application/apply-patch+yaml';

/** The patch types kube accepts, in the order its 415 lists them. */
const patchTypes = [jsonPatchType, mergePatchType, strategicPatchType, applyPatchType];

function gvkOf(h: HandlerInput): { group: string; version: string; kind: string } {
  const i = h.scope.apiVersion.indexOf('/');
  return { group: i < 0 ? '' : h.scope.apiVersion.slice(0, i), version: h.scope.apiVersion.slice(i + 1), kind: h.scope.kind };
}

/** Serves patch. */
export const patchHandler: Handler = async (h) => {
  const target = outputFor(h);
  const storage = h.scope.storage;
  if (!storage.update) throw methodNotAllowed();
  const mt = parseMediaType(h.req.headers['content-type'] ?? '');
  const patchType = mt ? `${mt.type}/${mt.subtype}` : '';
  if (!patchTypes.includes(patchType)) throw newUnsupportedMediaType(patchTypes);
  const strategicSchema = patchType === strategicPatchType ? patchSchemaFor(gvkOf(h)) : undefined;
  // Kinds without Go patch metadata (custom resources) cannot take a strategic merge patch.
  if (patchType === strategicPatchType && !strategicSchema) throw newUnsupportedMediaType(patchTypes);
  const isApply = patchType === applyPatchType;
  const opts = parseWriteOptions(h.query, 'PatchOptions', isApply);
  const dryRun = opts.dryRun;
  const raw = await readBody(h.req, undefined, h.res);
  if (raw.length === 0) throw newBadRequest('the body of the request was empty');
  const name = h.ctx.requestInfo.name;

  if (isApply) {
    // An apply configuration is YAML (JSON is YAML); repeated keys are go-yaml's line errors.
    const parsed = parseBodyStrict(raw, 'yaml');
    h.ctx.audit?.setRequestPatch(parsed.value);
    const applied = decodeExternalObject(
      h,
      { value: parsed.value, yamlDuplicates: parsed.yamlDuplicates, sortKeys: true, skipDefaulting: true },
      opts.fieldValidation,
    );
    const result = await storage.update(
      h.ctx,
      name,
      {
        updatedObject: async (ctx, old) => {
          const live = old ? toExternal(h.scope, old) : undefined;
          const obj = toInternal(h.scope, applyConfiguration(h, opts, live, structuredClone(applied)));
          await h.admission.admit(admissionAttributes(h, old ? 'UPDATE' : 'CREATE', name, obj, old, dryRun), ctx);
          return obj;
        },
      },
      { ...writeOptionsFor(opts), forceAllowCreate: true },
      validatingAdmission(h, 'UPDATE', dryRun),
    );
    await respondObject(h, target, result.created ? 201 : 200, result.object);
    return;
  }

  const parsed = parseBodyStrict(raw, 'json');
  const patchValue = parsed.value;
  h.ctx.audit?.setRequestPatch(patchValue);
  // Unless told to ignore, kube first decodes a JSON patch strictly into its operation type.
  if (patchType === jsonPatchType && opts.fieldValidation !== 'Ignore') checkJsonPatchStrict(patchValue);
  const ops = patchType === jsonPatchType ? decodeJsonPatch(patchValue) : undefined;
  if (!ops) {
    if (patchValue === null) throw newBadRequest('Invalid JSON Patch');
    if (typeof patchValue !== 'object' || Array.isArray(patchValue)) {
      const kind = Array.isArray(patchValue) ? 'array' : typeof patchValue === 'string' ? 'string' : typeof patchValue === 'boolean' ? 'bool' : 'number';
      throw newBadRequest(`error decoding patch: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`);
    }
  }
  const preMessages = ops ? jsonPatchFieldMessages(ops, parsed.duplicateFields) : parsed.duplicateFields.map((p) => `duplicate field ${goQuote(p)}`);
  // Where the result does not decode, kube answers 422 on `patch` (patch-errors.ts): the bad value
  // is the patched object's JSON for JSON and merge patches, the patch as Go prints it for a
  // strategic merge patch, whose result goes through the unstructured converter.
  const strategic = !ops && strategicSchema !== undefined;
  const patchFailure = (value: unknown): DecodedInput['patch'] =>
    strategic
      ? { badValue: () => goSprintValue(patchValue, parsed.numberLiterals), converter: { floats: parsed.numberLiterals } }
      : { badValue: () => goJsonText(value) };
  // evanphx/json-patch keeps the patch's number texts in the result, so `1e3` reaches the decoder as
  // written: a merge patch's numbers sit at the same paths in the result, a JSON patch's under its ops.
  const resultLiterals = strategic || !parsed.numberLiterals ? undefined : ops ? (value: unknown) => jsonPatchResultLiterals(ops, parsed.numberLiterals!, value) : () => parsed.numberLiterals;
  const apply = (current: KubeObject): unknown => {
    if (ops) return applyJsonPatch(current, ops);
    if (!strategicSchema) return applyMergePatch(current, patchValue);
    try {
      return strategicMergePatch(current, patchValue, strategicSchema);
    } catch (err) {
      if (err instanceof StrategicPatchError) throw statusErrorForPatch(err);
      throw err;
    }
  };
  const result = await storage.update(
    h.ctx,
    name,
    {
      updatedObject: async (ctx, old) => {
        if (!old) throw newNotFound(h.scope.gr, name);
        const current = toExternal(h.scope, old);
        // kube decodes the patched object through maps, so its keys (and unknown fields) come out sorted.
        const value = apply(current);
        const patched = decodeExternalObject(h, { value, preMessages, sortKeys: true, numberLiterals: resultLiterals?.(value), patch: patchFailure(value) }, opts.fieldValidation);
        const obj = toInternal(h.scope, trackUpdate(h, opts, current, patched));
        await h.admission.admit(admissionAttributes(h, 'UPDATE', name, obj, old, dryRun), ctx);
        return obj;
      },
    },
    writeOptionsFor(opts),
    validatingAdmission(h, 'UPDATE', dryRun),
  );
  await respondObject(h, target, result.created ? 201 : 200, result.object);
};
