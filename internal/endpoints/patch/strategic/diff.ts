/**
 * Computing a strategic merge patch from two documents (kube's diffMaps and diffLists): added and
 * changed fields, nulls for removed ones, `$patch: delete` elements and `$deleteFromPrimitiveList`
 * for merge lists, `$setElementOrder` when a merge list changed, and `$retainKeys` for retainKeys
 * fields. Never mutates its inputs; the patch may share values with modified.
 */
import {
  deleteDirectiveFor,
  deleteFromPrimitiveListPrefix,
  directiveMarker,
  fieldStrategy,
  mergeDirective,
  replaceDirective,
  retainKeysDirective,
  setElementOrderPrefix,
} from './directives.js';
import { errBadArgType, errNoMergeKey, errPatch, StrategicPatchError } from './errors.js';
import { compareGoStrings, deduplicateScalars, formatV, goDeepEqual, goTypeOf, isMap, sortScalars } from './go-values.js';
import { mergeKeyValueEqual, normalizeSliceOrder, sliceElementType } from './list-order.js';
import { sortMapsByMergeKey } from './sort-merge-lists.js';
import type { JsonMap, PatchLookup, PatchSchema } from './types.js';
import { setOwnKey } from '../../../collections/own-key.js';

/** What a diff leaves out or adds. */
export interface DiffOptions {
  /** Emit `$setElementOrder` for merge lists whose content or order changed. */
  readonly setElementOrder?: boolean;
  /** Leave additions and changes out (only deletions). */
  readonly ignoreChangesAndAdditions?: boolean;
  /** Leave deletions out (only additions and changes). */
  readonly ignoreDeletions?: boolean;
  /** Emit `$retainKeys` for this level (its field has the retainKeys strategy). */
  readonly buildRetainKeysDirective?: boolean;
}

/** Runs a lookup; a failure only matters when the two values differ (kube tolerates unknown equal fields). */
function lookupIfDifferent(lookup: () => PatchLookup, original: unknown, modified: unknown): PatchLookup | undefined {
  try {
    return lookup();
  } catch (err) {
    if (err instanceof StrategicPatchError && goDeepEqual(original, modified)) return undefined;
    throw err;
  }
}

/** The patch that turns original into modified. */
export function diffMaps(original: JsonMap, modified: JsonMap, schema: PatchSchema, options: DiffOptions): JsonMap {
  const patch: JsonMap = {};
  const retainKeys: string[] = [];
  for (const [key, modifiedValue] of Object.entries(modified)) {
    if (options.buildRetainKeysDirective && modifiedValue !== null) retainKeys.push(key);
    if (!Object.hasOwn(original, key)) {
      if (!options.ignoreChangesAndAdditions) setOwnKey(patch, key, modifiedValue);
      continue;
    }
    const originalValue = original[key];
    if (key === directiveMarker) {
      if (typeof originalValue !== 'string' || typeof modifiedValue !== 'string') throw errPatch(`invalid value for special key: ${directiveMarker}`);
      if (modifiedValue !== originalValue) patch[directiveMarker] = modifiedValue;
      continue;
    }
    if (goTypeOf(originalValue) !== goTypeOf(modifiedValue)) {
      if (!options.ignoreChangesAndAdditions) setOwnKey(patch, key, modifiedValue);
      continue;
    }
    if (isMap(originalValue)) diffMapField(key, originalValue, modifiedValue as JsonMap, patch, schema, options);
    else if (Array.isArray(originalValue)) diffListField(key, originalValue, modifiedValue as unknown[], patch, schema, options);
    else replaceIfNotEqual(key, originalValue, modifiedValue, patch, options);
  }

  if (!options.ignoreDeletions) {
    for (const key of Object.keys(original)) {
      if (!Object.hasOwn(modified, key)) setOwnKey(patch, key, null);
    }
  }
  // $retainKeys goes out when something changes here or original has a key modified dropped.
  const dropsKey = Object.entries(original).some(([k, v]) => v !== null && !Object.hasOwn(modified, k));
  if (retainKeys.length > 0 && (Object.keys(patch).length > 0 || dropsKey)) patch[retainKeysDirective] = sortScalars(retainKeys);
  return patch;
}

function replaceIfNotEqual(key: string, original: unknown, modified: unknown, patch: JsonMap, options: DiffOptions): void {
  if (options.ignoreChangesAndAdditions || goDeepEqual(original, modified)) return;
  setOwnKey(patch, key, modified);
}

/** Two maps under key: replaced whole for the replace strategy, else diffed recursively. */
function diffMapField(key: string, original: JsonMap, modified: JsonMap, patch: JsonMap, schema: PatchSchema, options: DiffOptions): void {
  const found = lookupIfDifferent(() => schema.lookupForStruct(key), original, modified);
  if (!found) return;
  const { retainKeys, strategy } = fieldStrategy(found.meta.strategies);
  if (strategy === replaceDirective) {
    if (!options.ignoreChangesAndAdditions) setOwnKey(patch, key, modified);
    return;
  }
  const nested = diffMaps(original, modified, found.schema, { ...options, buildRetainKeysDirective: retainKeys });
  if (Object.keys(nested).length > 0) setOwnKey(patch, key, nested);
}

/** Two lists under key: diffed element-wise for the merge strategy, else replaced when different. */
function diffListField(key: string, original: unknown[], modified: unknown[], patch: JsonMap, schema: PatchSchema, options: DiffOptions): void {
  const found = lookupIfDifferent(() => schema.lookupForSlice(key), original, modified);
  if (!found) return;
  const { retainKeys, strategy } = fieldStrategy(found.meta.strategies);
  if (strategy !== mergeDirective) {
    replaceIfNotEqual(key, original, modified, patch, options);
    return;
  }
  const lists = diffLists(original, modified, found.schema, found.meta.mergeKey, { ...options, buildRetainKeysDirective: retainKeys });
  if (lists.patch.length > 0) setOwnKey(patch, key, lists.patch);
  if (lists.deletions.length > 0) patch[`${deleteFromPrimitiveListPrefix}/${key}`] = lists.deletions;
  if (lists.order.length > 0) patch[`${setElementOrderPrefix}/${key}`] = lists.order;
}

/** The three parts of a merge list's patch. */
interface ListDiff {
  /** Added and changed elements, then `$patch: delete` ones (lists of maps). */
  readonly patch: unknown[];
  /** Scalars to delete (lists of scalars). */
  readonly deletions: unknown[];
  /** The `$setElementOrder` list. */
  readonly order: unknown[];
}

function diffLists(original: unknown[], modified: unknown[], elements: PatchSchema, mergeKey: string, options: DiffOptions): ListDiff {
  if (original.length === 0) {
    if (modified.length === 0 || options.ignoreChangesAndAdditions) return { patch: [], deletions: [], order: [] };
    return { patch: modified, deletions: [], order: [] };
  }
  const kind = sliceElementType(original, modified);
  if (kind === 'map') {
    const maps = diffListsOfMaps(original, modified, elements, mergeKey, options);
    const sorted = normalizeSliceOrder(maps.changes, modified, mergeKey, kind);
    const orderSame = isOrderSame(original, modified, mergeKey);
    const patch = [...sorted, ...maps.deletions];
    let order: unknown[] = [];
    if (
      options.setElementOrder &&
      ((!options.ignoreChangesAndAdditions && (patch.length > 0 || !orderSame)) || (!options.ignoreDeletions && patch.length > 0))
    ) {
      order = modified.map((v) => ({ [mergeKey]: (v as JsonMap)[mergeKey] }));
    }
    return { patch, deletions: [], order };
  }
  const scalars = diffListsOfScalars(original, modified, options);
  const patch = normalizeSliceOrder(scalars.additions, modified, mergeKey, kind);
  const changed = (!options.ignoreDeletions && scalars.deletions.length > 0) || (!options.ignoreChangesAndAdditions && !goDeepEqual(original, modified));
  return { patch, deletions: scalars.deletions, order: options.setElementOrder && changed ? modified : [] };
}

function isOrderSame(original: readonly unknown[], modified: readonly unknown[], mergeKey: string): boolean {
  if (original.length !== modified.length) return false;
  return modified.every((m, i) => mergeKeyValueEqual(original[i], m, mergeKey));
}

/** Walks both lists sorted by `%v` text: values only in modified are additions, only in original deletions. */
function diffListsOfScalars(original: readonly unknown[], modified: readonly unknown[], options: DiffOptions): { additions: unknown[]; deletions: unknown[] } {
  const from = sortScalars(original);
  const to = sortScalars(modified);
  const additions: unknown[] = [];
  const deletions: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < from.length || j < to.length) {
    const cmp = i >= from.length ? 1 : j >= to.length ? -1 : compareGoStrings(formatV(from[i]), formatV(to[j]));
    if (cmp === 0) {
      i++;
      j++;
    } else if (cmp > 0) {
      if (!options.ignoreChangesAndAdditions) additions.push(to[j]);
      j++;
    } else {
      if (!options.ignoreDeletions) deletions.push(from[i]);
      i++;
    }
  }
  return { additions, deletions: deduplicateScalars(deletions) };
}

function elementAt(list: readonly unknown[], index: number, mergeKey: string): { map: JsonMap; value: unknown; text: string } {
  const m = list[index];
  if (!isMap(m)) throw errBadArgType('map', m);
  if (!Object.hasOwn(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
  return { map: m, value: m[mergeKey], text: formatV(m[mergeKey]) };
}

/** Pairs elements by merge key (both lists sorted by its `%v` text) and diffs each pair. */
function diffListsOfMaps(
  original: readonly unknown[],
  modified: readonly unknown[],
  elements: PatchSchema,
  mergeKey: string,
  options: DiffOptions,
): { changes: unknown[]; deletions: unknown[] } {
  const from = sortMapsByMergeKey(original, mergeKey);
  const to = sortMapsByMergeKey(modified, mergeKey);
  const changes: unknown[] = [];
  const deletions: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < from.length || j < to.length) {
    const o = i < from.length ? elementAt(from, i, mergeKey) : undefined;
    const m = j < to.length ? elementAt(to, j, mergeKey) : undefined;
    const cmp = !o ? 1 : !m ? -1 : compareGoStrings(o.text, m.text);
    if (o && m && cmp === 0) {
      const nested = diffMaps(o.map, m.map, elements, options);
      if (Object.keys(nested).length > 0) {
        nested[mergeKey] = m.value;
        changes.push(nested);
      }
      i++;
      j++;
    } else if (m && cmp > 0) {
      if (!options.ignoreChangesAndAdditions) changes.push(m.map);
      j++;
    } else if (o) {
      if (!options.ignoreDeletions) deletions.push(deleteDirectiveFor(mergeKey, o.value));
      i++;
    }
  }
  return { changes, deletions };
}
