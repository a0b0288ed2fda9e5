/**
 * Ordering and equality of CEL values for the library functions (lists' min/max/isSorted,
 * indexOf, sets): numbers compare across int, uint and double; strings, bools and bytes among
 * themselves; anything else is "no such overload", as in cel-go.
 */
import { celEnv, isCelUint, type CelValue } from '@bufbuild/cel';

const equalsGroup = celEnv().funcs.find('_==_');

/** CEL equality (the standard _==_). */
export function celEquals(a: CelValue, b: CelValue): boolean {
  return equalsGroup?.call(0, undefined, [a, b]) === true;
}

function numeric(v: CelValue): bigint | number | undefined {
  if (typeof v === 'bigint' || typeof v === 'number') return v;
  if (isCelUint(v)) return v.value;
  return undefined;
}

/** -1, 0 or 1; throws "no such overload" for values without an order between them. */
export function celCompare(a: CelValue, b: CelValue): number {
  const na = numeric(a);
  const nb = numeric(b);
  if (na !== undefined && nb !== undefined) {
    if (typeof na === 'number' || typeof nb === 'number') {
      const x = Number(na);
      const y = Number(nb);
      return x < y ? -1 : x > y ? 1 : 0;
    }
    return na < nb ? -1 : na > nb ? 1 : 0;
  }
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return a.length - b.length < 0 ? -1 : a.length === b.length ? 0 : 1;
  }
  throw new Error('no such overload');
}
