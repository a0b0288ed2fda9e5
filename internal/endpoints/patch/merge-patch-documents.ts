/**
 * gopkg.in/evanphx/json-patch.v4 (v4.12.0)'s merge functions over JSON text, as clients call them:
 * MergePatch, MergeMergePatches and CreateMergePatch. The server applies parsed patches with
 * applyMergePatch and never creates or combines patches; these exist for clients and for tests
 * that check the library's behaviour text in, text out.
 */
import { setOwnKey } from '../../collections/own-key.js';
import { goJsonText } from './json-patch-node.js';
import { badJsonDocument, badJsonPatch, mergeJsonDocuments, MergePatchError } from './merge-patch.js';

/** evanphx's errBadMergeTypes text: one document is an array, the other is not. */
export const mismatchedDocuments = 'Mismatched JSON Documents';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses JSON text; undefined when it is not valid JSON (a Go *json.SyntaxError). */
function parseText(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** A value as Go's json.Marshal writes map[string]interface{}: keys sorted, compact, HTML-escaped. */
function marshalSorted(value: unknown): string {
  return goJsonText(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))) setOwnKey(out, key, sortKeys(value[key]));
  return out;
}

function mergeText(docText: string, patchText: string, keepNulls: boolean): string {
  const doc = parseText(docText);
  const patch = parseText(patchText);
  if (!doc) throw new MergePatchError(badJsonDocument);
  if (!patch) throw new MergePatchError(badJsonPatch);
  return marshalSorted(mergeJsonDocuments(doc.value, patch.value, keepNulls));
}

/** MergePatch(docData, patchData): the document with the merge patch applied. Throws MergePatchError. */
export function mergePatchText(docText: string, patchText: string): string {
  return mergeText(docText, patchText, false);
}

/**
 * MergeMergePatches(patch1, patch2): one merge patch with the effect of applying patch1 then
 * patch2; nulls (deletions) are kept. Throws MergePatchError.
 */
export function mergeMergePatches(patch1Text: string, patch2Text: string): string {
  return mergeText(patch1Text, patch2Text, true);
}

/**
 * CreateMergePatch(original, modified): the merge patch turning original into modified, for two
 * objects or for two equally long arrays of objects (one patch per pair). Throws MergePatchError.
 */
export function createMergePatch(originalText: string, modifiedText: string): string {
  const originalIsArray = resemblesArray(originalText);
  if (originalIsArray !== resemblesArray(modifiedText)) throw new MergePatchError(mismatchedDocuments);
  if (!originalIsArray) return marshalSorted(diffObjects(readObject(parseText(originalText)), readObject(parseText(modifiedText))));
  const originals = readArray(parseText(originalText));
  const modifieds = readArray(parseText(modifiedText));
  if (originals.length !== modifieds.length) throw new MergePatchError(badJsonDocument);
  return marshalSorted(originals.map((o, i) => diffObjects(readObject({ value: o }), readObject({ value: modifieds[i] }))));
}

/** The library's check for an array: trimmed text starts with [ and ends with ]. */
function resemblesArray(text: string): boolean {
  const trimmed = text.trim();
  return trimmed.startsWith('[') && trimmed.endsWith(']');
}

/** Text decoded into map[string]interface{}: an object, or null (a nil map); else "Invalid JSON Document". */
function readObject(parsed: { value: unknown } | undefined): JsonObject {
  if (parsed && parsed.value === null) return {};
  if (!parsed || !isObject(parsed.value)) throw new MergePatchError(badJsonDocument);
  return parsed.value;
}

/** Text decoded into []json.RawMessage: an array, or null (a nil slice); else "Invalid JSON Document". */
function readArray(parsed: { value: unknown } | undefined): unknown[] {
  if (parsed && parsed.value === null) return [];
  if (!parsed || !Array.isArray(parsed.value)) throw new MergePatchError(badJsonDocument);
  return parsed.value;
}

/** The Go type a decoded JSON value has (string, float64, bool, nil, map or slice). */
function goType(value: unknown): string {
  if (value === null) return 'nil';
  if (Array.isArray(value)) return 'slice';
  return typeof value;
}

/** The library's matchesValue: same type and deeply equal. */
function matchesValue(a: unknown, b: unknown): boolean {
  if (goType(a) !== goType(b)) return false;
  if (Array.isArray(a)) return matchesArray(a, b as unknown[]);
  if (isObject(a)) {
    const bObject = b as JsonObject;
    const keys = Object.keys(bObject);
    if (keys.length !== Object.keys(a).length) return false;
    return keys.every((key) => Object.hasOwn(a, key) && matchesValue(a[key], bObject[key]));
  }
  return a === b;
}

function matchesArray(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => matchesValue(v, b[i]));
}

/** The library's getDiff: members added or changed in b, and null for members b lacks. */
function diffObjects(a: JsonObject, b: JsonObject): JsonObject {
  const into: JsonObject = {};
  for (const [key, bv] of Object.entries(b)) {
    if (!Object.hasOwn(a, key) || goType(a[key]) !== goType(bv)) {
      setOwnKey(into, key, bv);
      continue;
    }
    const av = a[key];
    if (isObject(av)) {
      const nested = diffObjects(av, bv as JsonObject);
      if (Object.keys(nested).length > 0) setOwnKey(into, key, nested);
    } else if (!matchesValue(av, bv)) {
      setOwnKey(into, key, bv);
    }
  }
  for (const key of Object.keys(a)) if (!Object.hasOwn(b, key)) setOwnKey(into, key, null);
  return into;
}
