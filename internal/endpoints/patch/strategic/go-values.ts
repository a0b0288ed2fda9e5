/**
 * How kube's Go code sees a decoded JSON value: its dynamic type (int64 and float64 are different
 * types), `==` and reflect.DeepEqual, the `%v`/`%s` texts it sorts by and puts in errors, and
 * Go's byte-wise string order. Strategic merge patch orders lists by these texts, so they must match.
 */
import { StrategicPatchError } from './strategic-patch-error.js';
import type { JsonMap } from './types.js';

/** The Go dynamic type of a decoded JSON value (k8s.io/apimachinery/pkg/util/json keeps integers int64). */
export type GoType = 'nil' | 'map' | 'slice' | 'string' | 'bool' | 'int64' | 'float64';

const int64Limit = 2 ** 63;

/** True for a decoded JSON object. */
export function isMap(v: unknown): v is JsonMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** reflect.TypeOf(v) for a decoded JSON value; integral numbers within int64 are int64. */
export function goTypeOf(v: unknown): GoType {
  switch (typeof v) {
    case 'undefined':
      return 'nil';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int64';
    case 'number':
      return Number.isInteger(v) && Math.abs(v) < int64Limit ? 'int64' : 'float64';
    default:
      if (v === null) return 'nil';
      return Array.isArray(v) ? 'slice' : 'map';
  }
}

/** The Go type as `%s` of reflect.TypeOf prints it. */
export function goTypeName(v: unknown): string {
  switch (goTypeOf(v)) {
    case 'nil':
      return '%!s(<nil>)';
    case 'map':
      return 'map[string]interface {}';
    case 'slice':
      return '[]interface {}';
    default:
      return goTypeOf(v);
  }
}

function sameNumber(a: unknown, b: unknown): boolean {
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    try {
      return BigInt(a as number | bigint) === BigInt(b as number | bigint);
    } catch {
      return false;
    }
  }
  return a === b;
}

/** reflect.DeepEqual of two decoded JSON values. */
export function goDeepEqual(a: unknown, b: unknown): boolean {
  const t = goTypeOf(a);
  if (t !== goTypeOf(b)) return false;
  switch (t) {
    case 'nil':
      return true;
    case 'map': {
      const am = a as JsonMap;
      const bm = b as JsonMap;
      const keys = Object.keys(am);
      if (keys.length !== Object.keys(bm).length) return false;
      return keys.every((k) => Object.hasOwn(bm, k) && goDeepEqual(am[k], bm[k]));
    }
    case 'slice': {
      const al = a as unknown[];
      const bl = b as unknown[];
      return al.length === bl.length && al.every((v, i) => goDeepEqual(v, bl[i]));
    }
    case 'int64':
    case 'float64':
      return sameNumber(a, b);
    default:
      return a === b;
  }
}

/**
 * Go's `==` on two interface{} values: false when the dynamic types differ; Go panics comparing two
 * maps or two slices, which this reports as a StrategicPatchError.
 */
export function goEqual(a: unknown, b: unknown): boolean {
  const t = goTypeOf(a);
  if (t !== goTypeOf(b)) return false;
  if (t === 'map' || t === 'slice') {
    throw new StrategicPatchError('BadRequest', `runtime error: comparing uncomparable type ${goTypeName(a)}`);
  }
  if (t === 'nil') return true;
  if (t === 'int64' || t === 'float64') return sameNumber(a, b);
  return a === b;
}

/** A key that is equal for two scalars exactly when Go's `==` is (for Go map keys); maps and slices panic. */
export function scalarKey(v: unknown): string {
  const t = goTypeOf(v);
  if (t === 'map' || t === 'slice') {
    throw new StrategicPatchError('BadRequest', `runtime error: hash of unhashable type ${goTypeName(v)}`);
  }
  if (t === 'nil') return 'nil';
  return `${t}:${String(v)}`;
}

/** strconv.FormatFloat(v, 'g', -1, 64), which `%v` uses for float64. */
function formatFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mantissa, exponent] = v.toExponential().split('e') as [string, string];
  const exp = Number(exponent);
  // Shortest formatting switches to an exponent below 1e-4 and from 1e6 (precision 6 decides).
  if (exp < -4 || exp >= 6) {
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mantissa}e${exp < 0 ? '-' : '+'}${digits}`;
  }
  return String(v);
}

function formatNumber(v: number | bigint): string {
  if (typeof v === 'bigint') return v.toString();
  return goTypeOf(v) === 'int64' ? v.toFixed(0) : formatFloat(v);
}

/** fmt's `%v` of a decoded JSON value (maps print with sorted keys, as fmt does). */
export function formatV(v: unknown): string {
  switch (goTypeOf(v)) {
    case 'nil':
      return '<nil>';
    case 'map': {
      const m = v as JsonMap;
      const keys = Object.keys(m).sort(compareGoStrings);
      return `map[${keys.map((k) => `${k}:${formatV(m[k])}`).join(' ')}]`;
    }
    case 'slice':
      return `[${(v as unknown[]).map(formatV).join(' ')}]`;
    case 'int64':
    case 'float64':
      return formatNumber(v as number | bigint);
    default:
      return String(v);
  }
}

/** fmt's `%s` of a decoded JSON value: strings as they are, anything else flagged as fmt does. */
export function formatS(v: unknown): string {
  const t = goTypeOf(v);
  switch (t) {
    case 'string':
      return v as string;
    case 'nil':
      return '%!s(<nil>)';
    case 'map': {
      const m = v as JsonMap;
      const keys = Object.keys(m).sort(compareGoStrings);
      return `map[${keys.map((k) => `${k}:${formatS(m[k])}`).join(' ')}]`;
    }
    case 'slice':
      return `[${(v as unknown[]).map(formatS).join(' ')}]`;
    default:
      return `%!s(${t}=${formatV(v)})`;
  }
}

/** Go's string order: byte-wise over UTF-8, i.e. by code point. */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate stands for a code point above U+FFFF, which UTF-8 orders after every BMP one.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * sort.Sort over items[0..length) with kube's Less (`%v` text of i <= that of j), in place. Go sorts
 * up to 12 elements by insertion sort, where that Less swaps equal neighbours; this does the same,
 * and sorts longer runs stably (they differ from Go only in the order of equal keys).
 */
export function goSortByText<T>(items: T[], text: (item: T) => string, length = items.length): void {
  const keys = items.slice(0, length).map(text);
  if (length <= 12) {
    for (let i = 1; i < length; i++) {
      for (let j = i; j > 0 && compareGoStrings(keys[j] as string, keys[j - 1] as string) <= 0; j--) {
        [keys[j], keys[j - 1]] = [keys[j - 1] as string, keys[j] as string];
        [items[j], items[j - 1]] = [items[j - 1] as T, items[j] as T];
      }
    }
    return;
  }
  const order = keys.map((k, i) => ({ k, item: items[i] as T }));
  order.sort((a, b) => compareGoStrings(a.k, b.k));
  order.forEach((o, i) => {
    items[i] = o.item;
  });
}

/** kube's sortScalars: a sorted copy, ordered by `%v` text. */
export function sortScalars(list: readonly unknown[]): unknown[] {
  const out = [...list];
  goSortByText(out, formatV);
  return out;
}

/**
 * kube's in-place de-duplication of scalars over list[0..length): a duplicate is overwritten by the
 * last element, so the order changes as it does in Go. Returns the new length; the elements past it
 * keep what Go's shared backing array would hold.
 */
export function deduplicateScalarsInPlace(list: unknown[], length = list.length): number {
  let last = length - 1;
  for (let i = 0; i < last; i++) {
    for (let j = i + 1; j <= last; j++) {
      if (goEqual(list[i], list[j])) {
        list[j] = list[last];
        last--;
        j--;
      }
    }
  }
  return last + 1;
}

/** kube's deduplicateScalars on a copy. */
export function deduplicateScalars(list: readonly unknown[]): unknown[] {
  const out = [...list];
  return out.slice(0, deduplicateScalarsInPlace(out));
}

/** kube's deduplicateAndSortScalars on a copy. */
export function deduplicateAndSortScalars(list: readonly unknown[]): unknown[] {
  return sortScalars(deduplicateScalars(list));
}

/**
 * kube's deduplicateAndSortScalars as it acts on a slice it was handed: the caller's array is
 * rearranged in place (its length unchanged, as a Go slice header would be) and the de-duplicated,
 * sorted prefix is returned.
 */
export function deduplicateAndSortScalarsShared(list: unknown[]): unknown[] {
  const n = deduplicateScalarsInPlace(list);
  goSortByText(list, formatV, n);
  return list.slice(0, n);
}
