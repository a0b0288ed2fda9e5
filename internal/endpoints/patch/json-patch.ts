/**
 * JSON patch (`application/json-patch+json`) as kube-apiserver 1.33 serves it: decoded and applied
 * with gopkg.in/evanphx/json-patch.v4 semantics (see json-patch-apply.ts). A patch document that
 * does not decode is 400 with the Go decoder's text, more than 10000 operations is 413, and a patch
 * that does not apply is kube's generic 422.
 */
import type { Operation } from 'fast-json-patch';
import { newBadRequest, newRequestEntityTooLarge } from '../../apierrors/factories.js';
import { StatusError } from '../../apierrors/status-error.js';
import { applyPatchOperations, type RawOperation } from './json-patch-apply.js';
import { goJsonKind, PatchApplyError, PatchPanic } from './json-patch-error.js';
import { goQuote } from '../../validation/field-error.js';

/** The most operations kube accepts in one JSON patch (maxJSONPatchOperations). */
export const maxJsonPatchOperations = 10000;

/** kube-apiserver's JSONPatchMaxCopyBytes default (3 MiB), the bound on what `copy` operations may add. */
export const jsonPatchMaxCopyBytes = 3 * 1024 * 1024;

/**
 * Decodes a parsed JSON patch body as evanphx's DecodePatch does: null is an empty patch, anything
 * but a list of objects is 400 with the Go decoder's text, a null operation reads as an empty one
 * (it fails as "Unexpected kind: unknown" when applied); more than 10000 operations is 413.
 * Operations are not checked here: like kube, their errors surface when the patch is applied.
 */
export function decodeJsonPatch(value: unknown): Operation[] {
  if (value === null) return [];
  if (!Array.isArray(value)) throw newBadRequest(`json: cannot unmarshal ${goJsonKind(value)} into Go value of type jsonpatch.Patch`);
  const ops = value.map((op: unknown) => {
    if (op === null) return {};
    if (typeof op !== 'object' || Array.isArray(op)) {
      throw newBadRequest(`json: cannot unmarshal ${goJsonKind(op)} into Go value of type jsonpatch.Operation`);
    }
    return op;
  });
  if (ops.length > maxJsonPatchOperations) {
    throw newRequestEntityTooLarge(`The allowed maximum operations in a JSON patch is ${maxJsonPatchOperations}, got ${ops.length}`);
  }
  return ops as Operation[];
}

/**
 * kube's first look at a JSON patch when fieldValidation is Strict or Warn (the default): the body
 * must decode into its []jsonPatchOp{op, path, from string; value any}, else 400 `error decoding
 * patch: json: cannot unmarshal ...`. Unknown and duplicate fields are not errors here (see
 * jsonPatchFieldMessages). Meant to run before decodeJsonPatch; never mutates value.
 */
export function checkJsonPatchStrict(value: unknown): void {
  const fail = (what: string): StatusError => newBadRequest(`error decoding patch: json: cannot unmarshal ${what}`);
  if (value === null) return;
  if (!Array.isArray(value)) throw fail(`${goJsonKind(value)} into Go value of type []handlers.jsonPatchOp`);
  for (const op of value as unknown[]) {
    if (op === null) continue;
    if (typeof op !== 'object' || Array.isArray(op)) throw fail(`${goJsonKind(op)} into Go value of type handlers.jsonPatchOp`);
    for (const [field, v] of Object.entries(op)) {
      if ((field === 'op' || field === 'path' || field === 'from') && v !== null && typeof v !== 'string') {
        throw fail(`${goJsonKind(v)} into Go struct field jsonPatchOp.${field} of type string`);
      }
    }
  }
}

/**
 * Applies ops (from decodeJsonPatch) to doc and returns the patched document; doc is never mutated.
 * A failing operation is kube's 422 (see patchNotApplied).
 */
export function applyJsonPatch(doc: unknown, ops: Operation[]): unknown {
  try {
    return applyPatchOperations(doc, ops as unknown as RawOperation[], { accumulatedCopySizeLimit: jsonPatchMaxCopyBytes });
  } catch (err) {
    if (err instanceof PatchApplyError || err instanceof PatchPanic) throw patchNotApplied(err);
    throw err;
  }
}

/**
 * The 422 kube answers a JSON patch that does not apply with,
 * errors.NewGenericServerResponse(422, "", {}, "", text, 0, false): reason Invalid, a fixed message
 * and empty details. kube passes isUnexpectedResponse=false, so the library's text is not in the
 * response; it stays on the error as its cause, for logs and tests.
 */
export function patchNotApplied(err: Error): StatusError {
  const status = new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
  status.cause = err;
  return status;
}

const opFields = new Set(['op', 'path', 'value', 'from']);

/**
 * Strict-decoding findings of a JSON patch as kube words them (kjson.UnmarshalStrict into its
 * operation type, which names fields by their path, index first): keys an operation does not have
 * (`json patch unknown field "[0].foo"`) and keys an operation repeats (`json patch duplicate field
 * "[1].path"`); repeats inside an operation's value are not seen, as in kube.
 */
export function jsonPatchFieldMessages(ops: readonly Operation[], duplicatePaths: readonly string[]): string[] {
  const out: string[] = [];
  ops.forEach((op, i) => {
    for (const key of Object.keys(op)) if (!opFields.has(key)) out.push(`json patch unknown field ${goQuote(`[${i}].${key}`)}`);
  });
  for (const p of duplicatePaths) {
    if (/^\[\d+\]\.[^.[]+$/.test(p)) out.push(`json patch duplicate field ${goQuote(p)}`);
  }
  return out;
}
