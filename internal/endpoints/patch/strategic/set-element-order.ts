/**
 * The `$setElementOrder/<list>` directive: merges the list it names and gives the result the
 * directive's order (kube's mergePatchIntoOriginal; see the "preserve order in strategic merge
 * patch" design). Precedence: $setElementOrder, then the patch list, then the live list.
 */
import { directiveTarget, fieldStrategy, removeDirectives, setElementOrderPrefix } from './directives.js';
import { errBadArgType, errBadPatchFormatForSetElementOrderList, errPatch } from './errors.js';
import { formatV, goDeepEqual, isMap } from './go-values.js';
import {
  extractToDeleteItems,
  mergeKeyValueEqual,
  normalizeElementOrder,
  partitionMapsByPresentInList,
  partitionPrimitivesByPresentInList,
  sliceElementType,
} from './list-order.js';
import type { JsonMap, PatchSchema } from './types.js';
import { setOwnKey } from '../../../collections/own-key.js';

/**
 * Merges two lists of one field by its strategy (merge.ts's mergeSliceHandler), returning the result
 * and the original list as the merge left the caller's array.
 */
export type ListMerger = (
  original: unknown[],
  patch: unknown[],
  elements: PatchSchema,
  strategy: string,
  mergeKey: string,
) => { merged: unknown[]; original: unknown[] };

/** True for a map carrying `$patch`. */
function hasDirective(v: unknown): boolean {
  return isMap(v) && Object.hasOwn(v, '$patch');
}

/**
 * Checks the patch list's elements appear in the order list in the same relative order (elements
 * to delete and elements with directives aside).
 */
function validatePatchWithSetOrderList(patchList: readonly unknown[], setOrderList: unknown, mergeKey: string): void {
  if (!Array.isArray(setOrderList)) throw errBadPatchFormatForSetElementOrderList();
  if (setOrderList.length === 0 || patchList.length === 0) return;
  const items = mergeKey !== '' ? extractToDeleteItems(patchList).keep : patchList;
  let p = 0;
  let s = 0;
  while (p < items.length && s < setOrderList.length) {
    if (hasDirective(items[p])) {
      p++;
      continue;
    }
    if (mergeKeyValueEqual(items[p], setOrderList[s], mergeKey)) p++;
    s++;
  }
  if (p < items.length && s >= setOrderList.length) {
    throw errPatch(`The order in patch list:\n${formatV(patchList)}\n doesn't match ${setElementOrderPrefix} list:\n${formatV(setOrderList)}\n`);
  }
}

/**
 * Processes every `$setElementOrder/<list>` of patch: merges patch's <list> into original's and
 * orders the result, then removes both keys from patch. When merging two patches
 * (mergeParallelList false) the directive is also kept in original, and must agree with one there.
 * Mutates original and patch.
 */
export function applySetElementOrder(original: JsonMap, patch: JsonMap, schema: PatchSchema, mergeParallelList: boolean, mergeList: ListMerger): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(setElementOrderPrefix) || !Object.hasOwn(patch, key)) continue;
    const order = patch[key];
    if (!mergeParallelList) {
      if (Object.hasOwn(original, key)) {
        if (!goDeepEqual(original[key], order)) throw errBadPatchFormatForSetElementOrderList();
      } else {
        setOwnKey(original, key, order);
      }
    }
    delete patch[key];

    if (!Array.isArray(order)) throw errBadArgType('slice', order);
    const listKey = directiveTarget(key, setElementOrderPrefix);
    const foundOriginal = Object.hasOwn(original, listKey);
    const foundPatch = Object.hasOwn(patch, listKey);
    let originalList: unknown[] = [];
    let patchList: unknown[] = [];
    if (foundOriginal) {
      const v = original[listKey];
      if (!Array.isArray(v)) throw errBadArgType('slice', v);
      originalList = v;
    }
    if (foundPatch) {
      const v = patch[listKey];
      if (!Array.isArray(v)) throw errBadArgType('slice', v);
      patchList = v;
    }
    const { schema: elements, meta } = schema.lookupForSlice(listKey);
    const { strategy } = fieldStrategy(meta.strategies);
    validatePatchWithSetOrderList(patchList, order, meta.mergeKey);

    let merged: unknown[];
    let liveOrder = originalList;
    if (foundOriginal && foundPatch) ({ merged, original: liveOrder } = mergeList(originalList, patchList, elements, strategy, meta.mergeKey));
    else if (foundOriginal) merged = originalList;
    else if (foundPatch) merged = removeDirectives(patchList) as unknown[];
    else continue;

    const { inList, rest } =
      meta.mergeKey === '' ? partitionPrimitivesByPresentInList(merged, order) : partitionMapsByPresentInList(merged, order, meta.mergeKey);
    const kind = sliceElementType(originalList, patchList);
    setOwnKey(original, listKey, normalizeElementOrder(inList, rest, order, liveOrder, meta.mergeKey, kind));
    delete patch[listKey];
  }
}
