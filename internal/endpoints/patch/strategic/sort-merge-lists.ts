/**
 * kube's sortMergeListsByName: sorts every merge-strategy list of a document by merge key value
 * (lists of scalars de-duplicated and sorted), following the schema, so documents whose merge lists
 * differ only in order compare equal. kube's tests compare through it; its diff sorts lists of maps
 * the same way before pairing elements.
 */
import { deleteFromPrimitiveListPrefix, directiveMarker, fieldStrategy, mergeDirective, retainKeysDirective, setElementOrderPrefix } from './directives.js';
import { errBadPatchFormatForPrimitiveList, errBadPatchFormatForRetainKeys, errBadPatchFormatForSetElementOrderList } from './errors.js';
import { deduplicateAndSortScalars, formatV, goSortByText, isMap, sortScalars } from './go-values.js';
import { sliceElementType } from './list-order.js';
import type { JsonMap, PatchSchema } from './types.js';
import { setOwnKey } from '../../../collections/own-key.js';

/** A copy of a list of maps sorted by the `%v` text of each map's merge key value. */
export function sortMapsByMergeKey(list: readonly unknown[], mergeKey: string): unknown[] {
  const out = [...list];
  goSortByText(out, (m) => formatV((m as JsonMap)[mergeKey]));
  return out;
}

/**
 * A merge list sorted: scalars de-duplicated and sorted, maps sorted by merge key (and, with
 * recurse, their own merge lists sorted too). Returns a new list.
 */
export function sortMergeList(list: readonly unknown[], elements: PatchSchema, mergeKey: string, recurse: boolean): unknown[] {
  if (list.length === 0) return [...list];
  if (sliceElementType(list) !== 'map') return deduplicateAndSortScalars(list);
  const items = recurse ? list.map((e) => sortMergeListsInMap(e as JsonMap, elements)) : list;
  return sortMapsByMergeKey(items, mergeKey);
}

/**
 * A copy of m with every merge list under it sorted, `$retainKeys` and `$deleteFromPrimitiveList`
 * lists sorted and `$setElementOrder` lists left as they are. Throws on fields the schema lacks.
 */
export function sortMergeListsInMap(m: JsonMap, schema: PatchSchema): JsonMap {
  const out: JsonMap = {};
  for (const [k, original] of Object.entries(m)) {
    let v = original;
    if (k === retainKeysDirective) {
      if (!Array.isArray(v)) throw errBadPatchFormatForRetainKeys();
      v = sortScalars(v);
    } else if (k.startsWith(deleteFromPrimitiveListPrefix)) {
      if (!Array.isArray(v)) throw errBadPatchFormatForPrimitiveList();
      v = sortScalars(v);
    } else if (k.startsWith(setElementOrderPrefix)) {
      if (!Array.isArray(v)) throw errBadPatchFormatForSetElementOrderList();
    } else if (k !== directiveMarker) {
      if (isMap(v)) {
        v = sortMergeListsInMap(v, schema.lookupForStruct(k).schema);
      } else if (Array.isArray(v)) {
        const { schema: elements, meta } = schema.lookupForSlice(k);
        if (fieldStrategy(meta.strategies).strategy === mergeDirective) v = sortMergeList(v, elements, meta.mergeKey, true);
      }
    }
    setOwnKey(out, k, v);
  }
  return out;
}
