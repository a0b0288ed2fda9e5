/**
 * cel-go's sets extension as Kubernetes enables it: sets.contains(list, list),
 * sets.equivalent(list, list), sets.intersects(list, list).
 */
import { CelScalar, celFunc, listType, type CelFunc, type CelList } from '@bufbuild/cel';
import { celEquals } from './compare.js';

const LIST = listType(CelScalar.DYN);
const { BOOL } = CelScalar;

function contains(a: CelList, b: CelList): boolean {
  for (const x of b) {
    let found = false;
    for (const y of a) if (celEquals(x, y)) { found = true; break; }
    if (!found) return false;
  }
  return true;
}

/** The sets library's functions. */
export const setsLibrary: CelFunc[] = [
  celFunc('sets.contains', [LIST, LIST], BOOL, contains),
  celFunc('sets.equivalent', [LIST, LIST], BOOL, (a, b) => contains(a, b) && contains(b, a)),
  celFunc('sets.intersects', [LIST, LIST], BOOL, (a, b) => {
    for (const x of a) for (const y of b) if (celEquals(x, y)) return true;
    return false;
  }),
];
