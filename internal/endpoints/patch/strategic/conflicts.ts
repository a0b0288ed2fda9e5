/**
 * kube's MergingMapsHaveConflicts: whether two strategic merge patches touch the same keys with
 * different values, with merge lists compared element by element and scalar merge lists never
 * conflicting. Used by three-way patch creation to refuse overwriting changes made on the server.
 */
import { directiveMarker, fieldStrategy, mergeDirective, replaceDirective, retainKeysDirective } from './directives.js';
import { errPatch } from './errors.js';
import { deduplicateAndSortScalarsShared, formatS, formatV, goDeepEqual, goEqual, isMap } from './go-values.js';
import { sliceElementType } from './list-order.js';
import type { JsonMap, PatchSchema } from './types.js';

/**
 * True when left and right change some key differently. Throws when a key cannot be looked up in
 * the schema. May sort non-merge lists of scalars of left and right in place, as kube's does.
 */
export function mergingMapsHaveConflicts(left: JsonMap, right: JsonMap, schema: PatchSchema): boolean {
  return fieldsHaveConflicts(left, right, schema, '', '');
}

function fieldsHaveConflicts(left: unknown, right: unknown, schema: PatchSchema | undefined, strategy: string, mergeKey: string): boolean {
  if (isMap(left)) {
    if (!isMap(right)) return true;
    const inLeft = Object.hasOwn(left, directiveMarker);
    const inRight = Object.hasOwn(right, directiveMarker);
    // A directive acts on the whole map, so it conflicts with anything but the same directive.
    if (inLeft || inRight) {
      if (inLeft !== inRight) return true;
      if (!goEqual(left[directiveMarker], right[directiveMarker])) return true;
    }
    if (strategy === replaceDirective) return false;
    return mapsHaveConflicts(left, right, schema as PatchSchema);
  }
  if (Array.isArray(left)) {
    if (!Array.isArray(right)) return true;
    return listsHaveConflicts(left, right, schema as PatchSchema, strategy, mergeKey);
  }
  return !goDeepEqual(left, right);
}

function mapsHaveConflicts(left: JsonMap, right: JsonMap, schema: PatchSchema): boolean {
  for (const [key, leftValue] of Object.entries(left)) {
    if (key === directiveMarker || key === retainKeysDirective || !Object.hasOwn(right, key)) continue;
    let field: PatchSchema | undefined;
    let strategy = '';
    let mergeKey = '';
    if (Array.isArray(leftValue) || isMap(leftValue)) {
      const found = Array.isArray(leftValue) ? schema.lookupForSlice(key) : schema.lookupForStruct(key);
      field = found.schema;
      strategy = fieldStrategy(found.meta.strategies).strategy;
      mergeKey = found.meta.mergeKey;
    }
    if (fieldsHaveConflicts(leftValue, right[key], field, strategy, mergeKey)) return true;
  }
  return false;
}

function listsHaveConflicts(left: unknown[], right: unknown[], elements: PatchSchema, strategy: string, mergeKey: string): boolean {
  const kind = sliceElementType(left, right);
  if (strategy === mergeDirective) {
    if (kind !== 'map') return false;
    const l = byMergeKey(left, mergeKey);
    const r = byMergeKey(right, mergeKey);
    for (const [k, v] of l) {
      if (r.has(k) && fieldsHaveConflicts(v, r.get(k), elements, '', '')) return true;
    }
    return false;
  }
  if (left.length !== right.length) return true;
  let l: unknown[] = left;
  let r: unknown[] = right;
  if (kind !== 'map') {
    l = deduplicateAndSortScalarsShared(left);
    r = deduplicateAndSortScalarsShared(right);
  }
  for (let i = 0; i < l.length; i++) {
    // De-duplication can leave right shorter; Go indexes past its end and panics.
    if (i >= r.length) throw errPatch(`runtime error: index out of range [${i}] with length ${r.length}`);
    if (fieldsHaveConflicts(l[i], r[i], elements, '', '')) return true;
  }
  return false;
}

/** A merge list's elements keyed by the `%s` text of their merge key value. */
function byMergeKey(list: readonly unknown[], mergeKey: string): Map<string, JsonMap> {
  const out = new Map<string, JsonMap>();
  for (const v of list) {
    if (!isMap(v)) throw errPatch(`invalid element type in merging list:${formatV(list)}`);
    if (!Object.hasOwn(v, mergeKey)) throw errPatch(`cannot find merge key \`${mergeKey}\` in merging list element:${formatV(v)}`);
    out.set(formatS(v[mergeKey]), v);
  }
  return out;
}

