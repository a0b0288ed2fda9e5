/**
 * Applying a strategic merge patch (kube's mergeMap and mergeSlice): maps merge key by key, null
 * deletes, lists merge by merge key or as sets of scalars when their field says so and are replaced
 * otherwise, and the `$patch`, `$retainKeys`, `$setElementOrder` and `$deleteFromPrimitiveList`
 * directives act on the level they sit at. Works in place on values the caller owns.
 */
import {
  deleteDirective,
  deleteFromPrimitiveListPrefix,
  directiveMarker,
  directiveTarget,
  fieldStrategy,
  mergeDirective,
  removeDirectives,
  replaceDirective,
} from './directives.js';
import { errBadPatchType, errNoMergeKey, errPatch } from './errors.js';
import { deduplicateScalars, deduplicateScalarsInPlace, goTypeOf, isMap, scalarKey } from './go-values.js';
import { findByMergeKey, normalizeElementOrder, partitionMapsByPresentInList, partitionPrimitivesByPresentInList, sliceElementType } from './list-order.js';
import { applyRetainKeysDirective } from './retain-keys.js';
import { applySetElementOrder } from './set-element-order.js';
import type { JsonMap, PatchSchema } from './types.js';
import { setOwnKey } from '../../../collections/own-key.js';

/** How a merge treats directives and nulls that have nothing to act on. */
export interface MergeOptions {
  /**
   * True when applying a patch to an object (server side): `$deleteFromPrimitiveList` deletes and
   * directives are consumed. False when merging two patches into one (three-way creation), where
   * they are carried into the result.
   */
  readonly mergeParallelList: boolean;
  /** True when a null with nothing to delete is dropped, rather than kept in the result. */
  readonly ignoreUnmatchedNulls: boolean;
}

/** Removes null-valued keys from every map inside v (lists keep their null elements). Mutates v. */
function discardNullValuesFromPatch(v: unknown): void {
  if (Array.isArray(v)) {
    for (const e of v) discardNullValuesFromPatch(e);
  } else if (isMap(v)) {
    for (const [k, e] of Object.entries(v)) {
      if (e === null) delete v[k];
      else discardNullValuesFromPatch(e);
    }
  }
}

/** Sets target[key] to the patch value less its directives, or removes the key if nothing is left. */
function takePatchValue(target: JsonMap, key: string, patchValue: unknown): void {
  const kept = removeDirectives(patchValue);
  if (kept === undefined) delete target[key];
  else setOwnKey(target, key, kept);
}

/** A map-level `$patch`: replace takes the patch (less the directive), delete leaves an empty map. */
function mapDirective(directive: unknown, patch: JsonMap): JsonMap {
  if (directive === replaceDirective) {
    delete patch[directiveMarker];
    return patch;
  }
  if (directive === deleteDirective) return {};
  throw errBadPatchType(directive, patch);
}

/**
 * Merges patch into original (null stands for an empty map) and returns the result, which is
 * original itself unless a `$patch` directive replaced it. Mutates original and patch.
 */
export function mergeMap(original: JsonMap | null, patch: JsonMap, schema: PatchSchema, options: MergeOptions): JsonMap {
  if (Object.hasOwn(patch, directiveMarker)) return mapDirective(patch[directiveMarker], patch);
  const target = original ?? {};
  applyRetainKeysDirective(target, patch, options.mergeParallelList);
  applySetElementOrder(target, patch, schema, options.mergeParallelList, (o, p, elements, strategy, mergeKey) =>
    strategy === mergeDirective ? mergeListShared(o, p, elements, mergeKey, options, false) : { merged: p, original: o },
  );

  for (const [patchKey, patchValue] of Object.entries(patch)) {
    let key = patchKey;
    let isDeleteList = false;
    if (patchKey.startsWith(deleteFromPrimitiveListPrefix)) {
      if (!options.mergeParallelList) {
        setOwnKey(target, patchKey, patchValue);
        continue;
      }
      const listKey = directiveTarget(patchKey, deleteFromPrimitiveListPrefix);
      isDeleteList = true;
      if (listKey !== '') key = listKey;
    }

    if (patchValue === null) {
      delete target[key];
      if (options.ignoreUnmatchedNulls) continue;
    }

    if (!Object.hasOwn(target, key) || goTypeOf(target[key]) !== goTypeOf(patchValue)) {
      // Nothing to merge with: take the patch value as it is (a delete list has nothing to delete).
      if (!isDeleteList) {
        if (options.ignoreUnmatchedNulls) discardNullValuesFromPatch(patchValue);
        takePatchValue(target, key, patchValue);
      }
      continue;
    }

    const current = target[key];
    if (isMap(current)) {
      const { schema: field, meta } = schema.lookupForStruct(key);
      const { strategy } = fieldStrategy(meta.strategies);
      setOwnKey(target, key, strategy === replaceDirective ? patchValue : mergeMap(current, patchValue as JsonMap, field, options));
    } else if (Array.isArray(current)) {
      const { schema: elements, meta } = schema.lookupForSlice(key);
      const { strategy } = fieldStrategy(meta.strategies);
      setOwnKey(target, key, mergeListField(current, patchValue as unknown[], elements, strategy, meta.mergeKey, isDeleteList, options));
    } else {
      takePatchValue(target, key, patchValue);
    }
  }
  return target;
}

/** A list field: merged when its strategy is merge (or the patch is a delete list), else replaced. */
function mergeListField(
  original: unknown[],
  patch: unknown[],
  elements: PatchSchema,
  strategy: string,
  mergeKey: string,
  isDeleteList: boolean,
  options: MergeOptions,
): unknown[] {
  if (strategy === mergeDirective || isDeleteList) return mergeList(original, patch, elements, mergeKey, options, isDeleteList);
  return patch;
}

/** Removes from a list of scalars every value in toDelete. */
function deleteFromList(current: readonly unknown[], toDelete: readonly unknown[]): unknown[] {
  const gone = new Set(toDelete.map(scalarKey));
  return current.filter((v) => !gone.has(scalarKey(v)));
}

/**
 * Handles the list elements carrying `$patch`: delete removes every original element with that
 * merge key, replace makes the rest of the patch the whole list. Returns the original to merge into,
 * the patch elements left to merge, and the caller's array as Go leaves it: kube deletes by shifting
 * the shared backing array, so the caller's slice then shows the survivors and stale tail values.
 */
function applyElementDirectives(
  original: readonly unknown[],
  patch: readonly unknown[],
  mergeKey: string,
): { original: unknown[]; patch: unknown[]; shared: unknown[]; replaced: boolean } {
  const shared = [...original];
  let length = shared.length;
  const plain: unknown[] = [];
  let replaced = false;
  for (const v of patch) {
    const element = v as JsonMap;
    if (!Object.hasOwn(element, directiveMarker)) {
      plain.push(v);
      continue;
    }
    const directive = element[directiveMarker];
    if (directive === deleteDirective) {
      if (!Object.hasOwn(element, mergeKey)) throw errNoMergeKey(element, mergeKey);
      const value = element[mergeKey];
      // Every match goes, duplicates included.
      for (let found = findByMergeKey(shared.slice(0, length), mergeKey, value); found; found = findByMergeKey(shared.slice(0, length), mergeKey, value)) {
        shared.copyWithin(found.index, found.index + 1, length);
        length--;
      }
    } else if (directive === replaceDirective) {
      replaced = true;
    } else if (directive === mergeDirective) {
      throw errPatch('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, element);
    }
  }
  const kept = shared.slice(0, length);
  return replaced ? { original: plain, patch: [], shared, replaced } : { original: kept, patch: plain, shared, replaced };
}

/** Merges each patch element into the original element with its merge key value, or appends it. */
function mergeElements(original: readonly unknown[], patch: readonly unknown[], mergeKey: string, elements: PatchSchema, options: MergeOptions): unknown[] {
  const merged = [...original];
  for (const v of patch) {
    const element = v as JsonMap;
    if (!Object.hasOwn(element, mergeKey)) throw errNoMergeKey(element, mergeKey);
    const found = findByMergeKey(merged, mergeKey, element[mergeKey]);
    if (found) merged[found.index] = mergeMap(found.map, element, elements, options);
    else merged.push(v);
  }
  return merged;
}

/** A merged list, and the caller's original list as Go's shared backing array leaves it. */
export interface SharedMerge {
  readonly merged: unknown[];
  readonly original: unknown[];
}

/**
 * mergeList, also reporting what the caller's original list looks like afterwards. kube's mergeSlice
 * deletes in place and appends new elements to the shortened slice, which writes them into the
 * caller's array until it is full; the `$setElementOrder` step then orders by that array, so the
 * effect is part of the observable result.
 */
export function mergeListShared(
  original: unknown[],
  patch: unknown[],
  elements: PatchSchema,
  mergeKey: string,
  options: MergeOptions,
  isDeleteList: boolean,
): SharedMerge {
  if (original.length === 0 && patch.length === 0) return { merged: original, original };
  const kind = sliceElementType(original, patch);
  let base = original;
  let additions = patch;
  let merged: unknown[];
  let shared = original;
  if (kind !== 'map') {
    if (options.mergeParallelList && isDeleteList) return { merged: deleteFromList(original, patch), original };
    if (patch.length === 0) {
      // Appending nothing hands back the caller's own array, which de-duplication then rearranges.
      shared = [...original];
      merged = shared.slice(0, deduplicateScalarsInPlace(shared));
    } else {
      merged = deduplicateScalars([...original, ...patch]);
    }
  } else {
    if (mergeKey === '') throw errPatch(`cannot merge lists without merge key for ${elements.name}`);
    const directives = applyElementDirectives(original, patch, mergeKey);
    ({ original: base, patch: additions } = directives);
    merged = mergeElements(base, additions, mergeKey, elements, options);
    shared = directives.shared;
    if (!directives.replaced) {
      for (let at = base.length; at < merged.length && at < shared.length; at++) shared[at] = merged[at];
    }
  }
  const { inList, rest } =
    mergeKey === '' ? partitionPrimitivesByPresentInList(merged, additions) : partitionMapsByPresentInList(merged, additions, mergeKey);
  return { merged: normalizeElementOrder(inList, rest, additions, base, mergeKey, kind), original: shared };
}

/**
 * Merges two lists of a merge-strategy field (kube's mergeSlice): scalars as a set (or, for a delete
 * list, by removal), maps by merge key; then orders the result with the patch's order first.
 */
export function mergeList(
  original: unknown[],
  patch: unknown[],
  elements: PatchSchema,
  mergeKey: string,
  options: MergeOptions,
  isDeleteList: boolean,
): unknown[] {
  return mergeListShared(original, patch, elements, mergeKey, options, isDeleteList).merged;
}
