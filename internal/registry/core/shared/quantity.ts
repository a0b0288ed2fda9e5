/**
 * Just enough of resource.Quantity to compare container requests and limits: parsing kube's
 * quantity syntax into an exact integer count of nano-units. Values finer than a nano-unit round
 * up, as kube rounds them. Not a serializer; the canonical form is another concern.
 */

/** kube's quantity syntax (resource.ParseQuantity). */
const quantityRegexp = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/;

/** The message kube's decoder gives for a malformed quantity. */
export const quantityFormatError = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const decimalSuffixes: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/**
 * The quantity as nano-units, or undefined when it does not parse. JSON numbers are accepted, as
 * kube's Quantity unmarshals them.
 */
export function parseQuantityNanos(value: unknown): bigint | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return undefined;
  const m = quantityRegexp.exec(text);
  if (!m) return undefined;
  const num = m[1] as string;
  const suffix = m[2] ?? '';
  const negative = num.startsWith('-');
  const unsigned = num.replace(/^[+-]/, '');
  const [whole = '', frac = ''] = unsigned.split('.');
  let mantissa = BigInt(`${whole}${frac}` || '0');
  let pow10 = 9 - frac.length;
  let pow2 = 0;
  if (suffix in binarySuffixes) pow2 = binarySuffixes[suffix] as number;
  else if (suffix in decimalSuffixes) pow10 += decimalSuffixes[suffix] as number;
  else pow10 += Number(suffix.slice(1));
  mantissa *= 2n ** BigInt(pow2);
  let nanos: bigint;
  if (pow10 >= 0) nanos = mantissa * 10n ** BigInt(pow10);
  else {
    const div = 10n ** BigInt(-pow10);
    nanos = (mantissa + div - 1n) / div;
  }
  return negative ? -nanos : nanos;
}
