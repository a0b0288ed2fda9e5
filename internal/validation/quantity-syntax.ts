/**
 * The text side of resource.Quantity (k8s.io/apimachinery v0.33 pkg/api/resource): kube's
 * error texts, its scanner that splits a quantity into sign, numerator, denominator and suffix,
 * and the suffix tables in both directions (suffix -> base and exponent, exponent -> suffix).
 */

/** The regular expression kube names in its "wrong format" error (it is only quoted, never matched). */
export const quantitySplitRE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';

/** ErrFormatWrong's text. */
export const quantityFormatWrongMessage = `quantities must match the regular expression '${quantitySplitRE}'`;
/** ErrNumeric's text. */
export const quantityNumericMessage = 'unable to parse numeric part of quantity';
/** ErrSuffix's text. */
export const quantitySuffixMessage = "unable to parse quantity's suffix";

/** A quantity that does not parse; the message is kube's, word for word. */
export class QuantityError extends Error {
  override readonly name = 'QuantityError';
}

/** How a quantity is written back: kube's Format. */
export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

/** What parseQuantityString yields: the pieces of the number, undigested. */
export interface ScannedQuantity {
  readonly positive: boolean;
  /** The numeric prefix as written (sign included), or "0" when it was only zeros. */
  readonly value: string;
  /** Integer digits with leading zeros stripped ("0" when none are left). */
  readonly num: string;
  /** Fraction digits as written. */
  readonly denom: string;
  readonly suffix: string;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const suffixChars = 'eEinumkKMGTP';

/** kube's parseQuantityString: a fast scanner, deliberately as permissive as the original. Throws QuantityError. */
export function scanQuantity(str: string): ScannedQuantity {
  const end = str.length;
  let pos = 0;
  let positive = true;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') pos++;

  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };

  const numStart = pos;
  while (pos < end && isDigit(str[pos])) pos++;
  let num = str.slice(numStart, pos);
  if (pos >= end) return { positive, value: str, num, denom: '', suffix: '' };
  if (num === '') num = '0';

  let denom = '';
  if (str[pos] === '.') {
    pos++;
    const denomStart = pos;
    while (pos < end && isDigit(str[pos])) pos++;
    denom = str.slice(denomStart, pos);
    if (pos >= end) return { positive, value: str, num, denom, suffix: '' };
  }
  const value = str.slice(0, pos);

  const suffixStart = pos;
  while (pos < end && suffixChars.includes(str[pos] as string)) pos++;
  if (pos >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  throw new QuantityError(quantityFormatWrongMessage);
}

const decimalSuffixes: ReadonlyMap<string, number> = new Map([
  ['n', -9], ['u', -6], ['m', -3], ['', 0], ['k', 3], ['M', 6], ['G', 9], ['T', 12], ['P', 15], ['E', 18],
]);
const binarySuffixes: ReadonlyMap<string, number> = new Map([['Ki', 10], ['Mi', 20], ['Gi', 30], ['Ti', 40], ['Pi', 50], ['Ei', 60]]);
const decimalByExponent: ReadonlyMap<number, string> = new Map([...decimalSuffixes].map(([s, e]) => [e, s]));
const binaryByExponent: ReadonlyMap<number, string> = new Map([...binarySuffixes].map(([s, e]) => [e, s]));

/** A suffix's meaning: value = number * base^exponent, written back in format. */
export interface SuffixMeaning {
  readonly base: 2 | 10;
  readonly exponent: number;
  readonly format: QuantityFormat;
}

const int64Max = 2n ** 63n - 1n;

/** suffixHandler.interpret: the meaning of a suffix, or undefined when kube does not know it. */
export function interpretSuffix(suffix: string): SuffixMeaning | undefined {
  const dec = decimalSuffixes.get(suffix);
  if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
  const bin = binarySuffixes.get(suffix);
  if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    const digits = suffix.slice(1);
    if (!/^[+-]?[0-9]+$/.test(digits)) return undefined;
    const parsed = BigInt(digits);
    // strconv.ParseInt(_, 10, 64) refuses what int64 cannot hold; kube then keeps the low 32 bits.
    if (parsed > int64Max || parsed < -int64Max - 1n) return undefined;
    return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent' };
  }
  return undefined;
}

/** The suffix for a base-10 exponent in format, or undefined when the format has none for it. */
export function decimalSuffixFor(exponent: number, format: 'DecimalSI' | 'DecimalExponent'): string | undefined {
  if (format === 'DecimalSI') return decimalByExponent.get(exponent);
  return exponent === 0 ? '' : `e${exponent}`;
}

/** The BinarySI suffix for a power-of-two exponent (a multiple of 10 up to 60), or undefined. */
export function binarySuffixFor(exponent: number): string | undefined {
  return binaryByExponent.get(exponent);
}
