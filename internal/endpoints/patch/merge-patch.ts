/**
 * JSON merge patch (`application/merge-patch+json`) as gopkg.in/evanphx/json-patch.v4 (v4.12.0)
 * MergePatch applies it for kube-apiserver 1.33. Objects merge member by member and a null member
 * removes one; where it differs from RFC 7386:
 *
 * - a null or scalar patch is an error ("Invalid JSON Patch"), not the new document;
 * - an array patch replaces the document, keeping its null elements (only null members of objects
 *   inside it are dropped);
 * - a patch value replacing a non-object has its null members dropped, but an array or scalar
 *   replacing an object is taken as it is (null members of objects inside it stay);
 * - a null document is an error ("Invalid JSON Document").
 */
import { newBadRequest } from '../../apierrors/factories.js';
import { StatusError } from '../../apierrors/status-error.js';
import { setOwnKey } from '../../collections/own-key.js';

/** evanphx's ErrBadJSONDoc text. */
export const badJsonDocument = 'Invalid JSON Document';

/** evanphx's ErrBadJSONPatch text. */
export const badJsonPatch = 'Invalid JSON Patch';

/** A document or patch the library refuses; the message is its text. */
export class MergePatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MergePatchError';
  }
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Drops null members of objects, recursively and in place; null array elements stay (evanphx pruneNulls). */
function pruneNulls(value: unknown): void {
  if (Array.isArray(value)) {
    for (const element of value) if (element !== null) pruneNulls(element);
  } else if (isObject(value)) {
    for (const key of Object.keys(value)) {
      if (value[key] === null) delete value[key];
      else pruneNulls(value[key]);
    }
  }
}

/** Merges patch into the current value cur, both owned by the caller (evanphx merge). */
function mergeValue(cur: unknown, patch: unknown, keepNulls: boolean): unknown {
  if (!isObject(cur)) {
    pruneNulls(patch);
    return patch;
  }
  if (!isObject(patch)) return patch;
  mergeObjects(cur, patch, keepNulls);
  return cur;
}

/** Merges patch's members into doc in place (evanphx mergeDocs). */
function mergeObjects(doc: JsonObject, patch: JsonObject, keepNulls: boolean): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      if (keepNulls) setOwnKey(doc, key, null);
      else delete doc[key];
      continue;
    }
    const cur = Object.hasOwn(doc, key) ? doc[key] : null;
    if (cur === null) {
      if (!keepNulls) pruneNulls(value);
      setOwnKey(doc, key, value);
    } else {
      setOwnKey(doc, key, mergeValue(cur, value, keepNulls));
    }
  }
}

/**
 * evanphx's doMergePatch on parsed JSON: MergePatch when keepNulls is false, MergeMergePatches
 * (a patch merged into a patch, nulls kept as deletions) when true. Returns a fresh value and
 * mutates neither input; throws MergePatchError for a null document or a null or scalar patch.
 */
export function mergeJsonDocuments(doc: unknown, patch: unknown, keepNulls: boolean): unknown {
  if (doc === null) throw new MergePatchError(badJsonDocument);
  if (patch === null) throw new MergePatchError(badJsonPatch);
  const target = structuredClone(doc);
  const changes = structuredClone(patch);
  if (isObject(target) && isObject(changes)) {
    mergeObjects(target, changes, keepNulls);
    return target;
  }
  // A document or patch that is no object: the patch, if an object or array, is the result.
  if (isObject(changes)) {
    if (!keepNulls) pruneNulls(changes);
    return changes;
  }
  if (Array.isArray(changes)) {
    pruneNulls(changes);
    return changes;
  }
  throw new MergePatchError(badJsonPatch);
}

/**
 * Applies a merge patch to target and returns the result; never mutates either. kube answers
 * "Invalid JSON Patch" with 400 BadRequest; "Invalid JSON Document" (the stored object is null,
 * which the server never hands in) is not a status in kube and surfaces as its 500.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  try {
    return mergeJsonDocuments(target, patch, false);
  } catch (err) {
    if (!(err instanceof MergePatchError)) throw err;
    if (err.message === badJsonPatch) throw newBadRequest(err.message);
    throw new StatusError(500, '', err.message);
  }
}
