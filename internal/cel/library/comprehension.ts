/**
 * Helpers the two-variable comprehension expansion (two-var.ts) calls: a range's keys, and map
 * building for transformMap / transformMapEntry with cel-go's duplicate-key errors.
 */
import { CelScalar, celFunc, isCelList, isCelMap, mapType, type CelFunc, type CelMap, type CelValue } from '@bufbuild/cel';
import { keysFunction, mapInsertFunction, mapMergeFunction } from '../two-var.js';

const { DYN } = CelScalar;
const MAP = mapType(DYN, DYN);
type Key = bigint | string | boolean;

function copy(m: CelMap): Map<Key, CelValue> {
  const out = new Map<Key, CelValue>();
  for (const [k, v] of m) out.set(k as Key, v);
  return out;
}

/** The comprehension helpers. */
export const comprehensionLibrary: CelFunc[] = [
  celFunc(keysFunction, [DYN], DYN, (range) => {
    if (isCelList(range)) return Array.from({ length: range.size }, (_, i) => BigInt(i));
    if (isCelMap(range)) return [...range.keys()] as Key[];
    throw new Error('no such overload');
  }),
  celFunc(mapInsertFunction, [MAP, DYN, DYN], MAP, (m, k, v) => {
    if (m.has(k as Key)) throw new Error(`insert failed: key ${String(k)} already exists`);
    return copy(m).set(k as Key, v);
  }),
  celFunc(mapMergeFunction, [MAP, MAP], MAP, (m, entry) => {
    const out = copy(m);
    for (const [k, v] of entry) {
      if (out.has(k as Key)) throw new Error(`insert failed: key ${String(k)} already exists`);
      out.set(k as Key, v);
    }
    return out;
  }),
];
