/**
 * Kubernetes' lists library: <list>.isSorted(), sum(), min(), max(), indexOf(x), lastIndexOf(x).
 */
import { CelScalar, celMethod, celUint, isCelUint, listType, type CelFunc, type CelList, type CelValue } from '@bufbuild/cel';
import { celCompare, celEquals } from './compare.js';

const { DYN, BOOL, INT } = CelScalar;
const LIST = listType(DYN);
const maxInt = 2n ** 63n - 1n;
const minInt = -(2n ** 63n);

function extreme(list: CelList, sign: number, name: string): CelValue<typeof DYN> {
  if (list.size === 0) throw new Error(`${name}(list) called on empty list`);
  let best: CelValue = list.get(0)!;
  for (const v of list) if (celCompare(v, best) * sign > 0) best = v;
  return best as CelValue<typeof DYN>;
}

function sum(list: CelList): CelValue {
  let kind: 'int' | 'uint' | 'double' | undefined;
  let total = 0n;
  let dtotal = 0;
  for (const v of list) {
    const k = typeof v === 'bigint' ? 'int' : typeof v === 'number' ? 'double' : isCelUint(v) ? 'uint' : undefined;
    if (!k || (kind && kind !== k)) throw new Error('no such overload');
    kind = k;
    if (k === 'double') dtotal += v as number;
    else {
      total += k === 'uint' ? (v as { value: bigint }).value : (v as bigint);
      if (k === 'int' && (total > maxInt || total < minInt)) throw new Error('integer overflow');
      if (k === 'uint' && total >= 2n ** 64n) throw new Error('unsigned integer overflow');
    }
  }
  if (kind === 'double') return dtotal;
  if (kind === 'uint') return celUint(total);
  return total;
}

/** The lists library's functions. */
export const listsLibrary: CelFunc[] = [
  celMethod('isSorted', LIST, [], BOOL, function () {
    let prev: CelValue | undefined;
    for (const v of this) {
      if (prev !== undefined && celCompare(prev, v) > 0) return false;
      prev = v;
    }
    return true;
  }),
  celMethod('sum', LIST, [], DYN, function () {
    return sum(this);
  }),
  celMethod('min', LIST, [], DYN, function () {
    return extreme(this, -1, 'min');
  }),
  celMethod('max', LIST, [], DYN, function () {
    return extreme(this, 1, 'max');
  }),
  celMethod('indexOf', LIST, [DYN], INT, function (x) {
    let i = 0;
    for (const v of this) {
      if (celEquals(v, x)) return BigInt(i);
      i++;
    }
    return -1n;
  }),
  celMethod('lastIndexOf', LIST, [DYN], INT, function (x) {
    let found = -1;
    let i = 0;
    for (const v of this) {
      if (celEquals(v, x)) found = i;
      i++;
    }
    return BigInt(found);
  }),
];
