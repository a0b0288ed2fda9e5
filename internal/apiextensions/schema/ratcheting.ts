/**
 * CRDValidationRatcheting for schema errors (kube's ratcheting schema validator): on an update, an
 * error raised by a value that equals its correlated value in the old object is dropped. Values
 * correlate through map keys, list-type=map items by their keys and list-type=set items by value;
 * items of atomic lists do not correlate, so only an unchanged list as a whole ratchets.
 */
import type { Segment } from './data-path.js';
import { deepEqual, isObject, type StructuralNode } from './structural.js';

const absent = Symbol('absent');

function correlateItem(item: unknown, oldList: readonly unknown[], node: StructuralNode): unknown {
  if (node.listType === 'set') return oldList.find((o) => deepEqual(o, item)) ?? absent;
  if (node.listType !== 'map' || !isObject(item)) return absent;
  const keys = node.listMapKeys;
  const match = oldList.find((o) => isObject(o) && keys.every((k) => deepEqual(o[k], item[k])));
  return match === undefined ? absent : match;
}

/**
 * True when the value at segments (or a value on the way to it) is unchanged from its correlated
 * old value, so an error it raised is ratcheted away.
 */
export function isRatcheted(segments: readonly Segment[], obj: unknown, old: unknown, root: StructuralNode): boolean {
  let cur: unknown = obj;
  let prev: unknown = old;
  let node: StructuralNode | undefined = root;
  for (let i = 0; ; i++) {
    if (deepEqual(cur, prev)) return true;
    if (i === segments.length) return false;
    const seg = segments[i] as Segment;
    if (typeof seg === 'number') {
      if (!Array.isArray(cur) || !Array.isArray(prev) || !node) return false;
      const item = cur[seg];
      const match = correlateItem(item, prev, node);
      if (match === absent) return false;
      cur = item;
      prev = match;
      node = node.items;
    } else {
      if (!isObject(cur) || !isObject(prev) || !Object.prototype.hasOwnProperty.call(prev, seg)) return false;
      cur = cur[seg];
      prev = prev[seg];
      node = node?.properties.get(seg) ?? node?.additional;
    }
  }
}
