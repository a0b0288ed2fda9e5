/**
 * cel-go's optional values as functions (optional.of, optional.ofNonZeroValue, optional.none,
 * hasValue(), value(), orValue(), or()). @bufbuild/cel's parser has no `?.` / `[?]` syntax, so
 * only these functions are offered; the format library's validate() returns such a value.
 */
import { CelScalar, celFunc, celMethod, isCelList, isCelMap, isCelUint, type CelFunc, type CelValue } from '@bufbuild/cel';
import { optIndexCall, optSelectFunction } from '../ast.js';
import { KubeType, optionalPayload, optionalValue } from '../types.js';

const { DYN, BOOL } = CelScalar;
const OPT = KubeType.Optional;

function isZero(v: CelValue): boolean {
  if (v === null || v === false || v === 0n || v === 0 || v === '') return true;
  if (v instanceof Uint8Array) return v.length === 0;
  if (isCelUint(v)) return v.value === 0n;
  if (isCelList(v) || isCelMap(v)) return v.size === 0;
  return false;
}

function unwrap(v: CelValue): CelValue | undefined {
  return isOptional(v) ? optionalPayload(v) : v;
}

function isOptional(v: CelValue): boolean {
  return typeof v === 'object' && v !== null && 'desc' in v && (v as { desc: { typeName: string } }).desc.typeName === 'optional_type';
}

function optSelect(target: CelValue, key: CelValue): ReturnType<typeof optionalValue> {
  const x = unwrap(target);
  if (x === undefined) return optionalValue(undefined);
  if (isCelMap(x)) {
    const v = x.get(key as string);
    return optionalValue(v === undefined ? undefined : v);
  }
  if (isCelList(x) && (typeof key === 'bigint' || isCelUint(key))) {
    const i = Number(typeof key === 'bigint' ? key : key.value);
    return optionalValue(i >= 0 && i < x.size ? x.get(i) : undefined);
  }
  throw new Error('no such overload');
}

/** The optional library's functions. */
export const optionalLibrary: CelFunc[] = [
  celFunc(optSelectFunction, [DYN, DYN], OPT, optSelect),
  celFunc(optIndexCall, [DYN, DYN], OPT, optSelect),
  celFunc('optional.of', [DYN], OPT, (v) => optionalValue(v)),
  celFunc('optional.ofNonZeroValue', [DYN], OPT, (v) => optionalValue(isZero(v) ? undefined : v)),
  celFunc('optional.none', [], OPT, () => optionalValue(undefined)),
  celMethod('hasValue', OPT, [], BOOL, function () {
    return optionalPayload(this) !== undefined;
  }),
  celMethod('value', OPT, [], DYN, function () {
    const v = optionalPayload(this);
    if (v === undefined) throw new Error('optional.none() dereference');
    return v;
  }),
  celMethod('orValue', OPT, [DYN], DYN, function (other) {
    return optionalPayload(this) ?? other;
  }),
  celMethod('or', OPT, [OPT], OPT, function (other) {
    return optionalPayload(this) !== undefined ? this : other;
  }),
];
