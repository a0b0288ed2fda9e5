/**
 * Lists in strategic merge patch: the element type they must share, finding elements by merge key,
 * and the ordering rules ($setElementOrder and patch order first, then the live order for the
 * elements only the server has).
 */
import { directiveMarker, deleteDirective } from './directives.js';
import { errBadArgType, errNoListOfLists, errNoMergeKey, errPatch } from './errors.js';
import { formatV, goEqual, goTypeOf, isMap, scalarKey, type GoType } from './go-values.js';
import type { JsonMap } from './types.js';

/**
 * The element type all the given lists share (kube's sliceElementType). Lists of lists, mixed types
 * and no elements at all are errors.
 */
export function sliceElementType(...lists: readonly (readonly unknown[])[]): GoType {
  let prev: GoType | undefined;
  for (const list of lists) {
    for (const v of list) {
      const t = goTypeOf(v);
      if (prev === undefined) {
        // Go asks the Kind of a nil reflect.Type here and panics.
        if (t === 'nil') throw errPatch('runtime error: invalid memory address or nil pointer dereference');
        if (t === 'slice') throw errNoListOfLists();
        prev = t;
      } else if (prev !== t) {
        throw errPatch(`list element types are not identical: ${formatV(lists)}`);
      }
    }
  }
  if (prev === undefined) throw errPatch('no elements in any of the given slices');
  return prev;
}

/** The element of a list of maps whose merge key equals value (Go `==`), with its index. */
export function findByMergeKey(list: readonly unknown[], mergeKey: string, value: unknown): { map: JsonMap; index: number } | undefined {
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (!isMap(v)) throw errPatch(`value for key ${i} is not a map`);
    if (Object.hasOwn(v, mergeKey) && goEqual(v[mergeKey], value)) return { map: v, index: i };
  }
  return undefined;
}

/** Whether two elements are the same element: equal values, or equal merge key values for maps. */
export function mergeKeyValueEqual(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return goEqual(left, right);
  if (!isMap(left)) throw errBadArgType('map', left);
  if (!isMap(right)) throw errBadArgType('map', right);
  if (!Object.hasOwn(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!Object.hasOwn(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return goEqual(left[mergeKey], right[mergeKey]);
}

/** Where an element sits in list: by merge key value for maps, by value otherwise; -1 when absent. */
function indexIn(list: readonly unknown[], item: unknown, mergeKey: string, kind: GoType): number {
  const valueOf = kind === 'map' ? (v: unknown): unknown => (isMap(v) ? v[mergeKey] : undefined) : (v: unknown): unknown => v;
  const wanted = valueOf(item);
  return list.findIndex((v) => goEqual(wanted, valueOf(v)));
}

/** Checks every element of the lists is a map carrying the merge key. */
export function validateMergeKeyInLists(mergeKey: string, ...lists: readonly (readonly unknown[])[]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isMap(item)) throw errBadArgType('map', item);
      if (!Object.hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

/** Splits a list of maps into the elements to keep and the `$patch: delete` ones. */
export function extractToDeleteItems(list: readonly unknown[]): { keep: unknown[]; toDelete: unknown[] } {
  const keep: unknown[] = [];
  const toDelete: unknown[] = [];
  for (const v of list) {
    if (!isMap(v)) throw errBadArgType('map', v);
    if (Object.hasOwn(v, directiveMarker) && v[directiveMarker] === deleteDirective) toDelete.push(v);
    else keep.push(v);
  }
  return { keep, toDelete };
}

/** Sorts toSort stably by position in order (deletions last, for maps); returns a new list. */
export function normalizeSliceOrder(toSort: readonly unknown[], order: readonly unknown[], mergeKey: string, kind: GoType): unknown[] {
  let items = [...toSort];
  let toDelete: unknown[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, toSort, order);
    ({ keep: items, toDelete } = extractToDeleteItems(toSort));
  }
  const ranked = items.map((item) => ({ item, at: indexIn(order, item, mergeKey, kind) }));
  // kube's Less says "before" whenever either element is missing from order. Go's stable sort
  // insertion-sorts runs of up to 20, which with that Less moves such elements to the front; that
  // is reproduced for short lists, longer ones keep missing elements in place.
  const less = (a: { at: number }, b: { at: number }): boolean => (a.at >= 0 && b.at >= 0 ? a.at < b.at : true);
  if (ranked.length <= 20) {
    for (let i = 1; i < ranked.length; i++) {
      for (let j = i; j > 0 && less(ranked[j] as { at: number }, ranked[j - 1] as { at: number }); j--) {
        [ranked[j], ranked[j - 1]] = [ranked[j - 1] as (typeof ranked)[number], ranked[j] as (typeof ranked)[number]];
      }
    }
  } else {
    ranked.sort((a, b) => (a.at >= 0 && b.at >= 0 ? a.at - b.at : 0));
  }
  return [...ranked.map((r) => r.item), ...toDelete];
}

/**
 * Merges two lists that are each in their final relative order, interleaving them by the live
 * order: a left element goes first only when both are in the live list and it comes earlier there.
 */
function mergeSortedSlice(left: readonly unknown[], right: readonly unknown[], serverOrder: readonly unknown[], mergeKey: string, kind: GoType): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, kind);
      const ri = indexIn(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

/**
 * The final order of a merged list: patch elements by patchOrder, server-only elements by the live
 * order, then the two interleaved by the live order (kube's normalizeElementOrder).
 */
export function normalizeElementOrder(
  patch: readonly unknown[],
  serverOnly: readonly unknown[],
  patchOrder: readonly unknown[],
  serverOrder: readonly unknown[],
  mergeKey: string,
  kind: GoType,
): unknown[] {
  const sortedPatch = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const sortedServerOnly = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(sortedServerOnly, sortedPatch, serverOrder, mergeKey, kind);
}

/** Splits scalars into those present in partitionBy and the rest. */
export function partitionPrimitivesByPresentInList(list: readonly unknown[], partitionBy: readonly unknown[]): { inList: unknown[]; rest: unknown[] } {
  const present = new Set(partitionBy.map(scalarKey));
  const inList: unknown[] = [];
  const rest: unknown[] = [];
  for (const v of list) (present.has(scalarKey(v)) ? inList : rest).push(v);
  return { inList, rest };
}

/** Splits maps into those whose merge key value appears in partitionBy and the rest. */
export function partitionMapsByPresentInList(list: readonly unknown[], partitionBy: readonly unknown[], mergeKey: string): { inList: unknown[]; rest: unknown[] } {
  const inList: unknown[] = [];
  const rest: unknown[] = [];
  for (const v of list) {
    if (!isMap(v)) throw errBadArgType('map', v);
    if (!Object.hasOwn(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    (findByMergeKey(partitionBy, mergeKey, v[mergeKey]) ? inList : rest).push(v);
  }
  return { inList, rest };
}
