/**
 * kube's resource.Quantity (k8s.io/apimachinery v0.33 pkg/api/resource): exact fixed-point
 * quantities such as `500m`, `1Gi` or `1e3`, parsed with kube's rules (nano rounding, the BinarySI
 * cap at 2^63-1) and written back in kube's canonical form. A Quantity is immutable; operations
 * return new ones. The value is mantissa x 10^exponent, kept as kube keeps it so conversions to
 * float that depend on the representation (AsApproximateFloat64) agree.
 */
import {
  QuantityError,
  binarySuffixFor,
  decimalSuffixFor,
  interpretSuffix,
  quantityFormatWrongMessage,
  quantityNumericMessage,
  quantitySuffixMessage,
  scanQuantity,
  type QuantityFormat,
} from './quantity-syntax.js';

export { QuantityError, type QuantityFormat } from './quantity-syntax.js';

const int64Max = 2n ** 63n - 1n;
const int64Min = -(2n ** 63n);
/** Scales kube names: 10^-9 (nano) up to 10^18 (exa). */
export const Scale = { Nano: -9, Micro: -6, Milli: -3, None: 0, Kilo: 3, Mega: 6, Giga: 9, Tera: 12, Peta: 15, Exa: 18 } as const;

const abs = (v: bigint): bigint => (v < 0n ? -v : v);
const pow10 = (n: number): bigint => 10n ** BigInt(n);
const digitCount = (v: bigint): number => (v === 0n ? 0 : abs(v).toString().length);

/** Rounds |m| x 10^e up (away from zero) to a multiple of 10^scale. */
function roundAwayFromZero(m: bigint, e: number, scale: number): { m: bigint; e: number; exact: boolean } {
  if (e >= scale || m === 0n) return { m, e, exact: true };
  const sign = m < 0n ? -1n : 1n;
  // A value below one unit of the target scale rounds to exactly one unit; no need to build 10^huge.
  if (digitCount(m) + e <= scale) return { m: sign, e: scale, exact: false };
  const div = pow10(scale - e);
  const q = abs(m) / div;
  const exact = abs(m) % div === 0n;
  return { m: sign * (exact ? q : q + 1n), e: scale, exact };
}

/** Go's math.Pow10, reproduced so float conversions round exactly as kube's do. */
function goPow10(n: number): number {
  const tab = Array.from({ length: 32 }, (_, i) => Number(`1e${i}`));
  if (n >= 0 && n <= 308) return Number(`1e${Math.floor(n / 32) * 32}`) * (tab[n % 32] as number);
  if (n >= -323 && n <= 0) return Number(`1e-${Math.floor(-n / 32) * 32}`) / (tab[-n % 32] as number);
  return n > 0 ? Infinity : 0;
}

/** A parsed or constructed resource quantity. */
export class Quantity {
  /**
   * Builds mantissa x 10^exponent in format. `cached` is the text kube remembers from parsing a
   * string already in canonical form; String() then returns it verbatim.
   */
  constructor(
    readonly mantissa: bigint,
    readonly exponent: number,
    readonly format: QuantityFormat | string,
    private readonly cached?: string,
  ) {}

  /** -1, 0 or 1. */
  sign(): number {
    return this.mantissa === 0n ? 0 : this.mantissa < 0n ? -1 : 1;
  }

  /** True for a zero value (of any format). */
  isZero(): boolean {
    return this.mantissa === 0n;
  }

  /** Cmp: -1, 0 or 1 as this is less than, equal to or greater than other. */
  cmp(other: Quantity): number {
    const a = this.sign();
    const b = other.sign();
    if (a !== b || a === 0) return Math.sign(a - b);
    // Same sign: compare orders of magnitude first so huge exponents never expand.
    const orderA = digitCount(this.mantissa) + this.exponent;
    const orderB = digitCount(other.mantissa) + other.exponent;
    if (orderA !== orderB) return orderA > orderB ? a : -a;
    const e = Math.min(this.exponent, other.exponent);
    const x = this.mantissa * pow10(this.exponent - e);
    const y = other.mantissa * pow10(other.exponent - e);
    return x === y ? 0 : x > y ? 1 : -1;
  }

  /** CmpInt64. */
  cmpInt(value: bigint | number): number {
    return this.cmp(new Quantity(BigInt(value), 0, 'DecimalSI'));
  }

  /** RoundUp: the value rounded away from zero to a multiple of 10^scale, and whether nothing was lost. */
  roundUp(scale: number): { quantity: Quantity; exact: boolean } {
    if (this.exponent >= scale) return { quantity: this, exact: true };
    const r = roundAwayFromZero(this.mantissa, this.exponent, scale);
    return { quantity: new Quantity(r.m, r.e, this.format), exact: r.exact };
  }

  /** Neg: the negated value in the same format. */
  neg(): Quantity {
    return new Quantity(-this.mantissa, this.exponent, this.format);
  }

  /** Add: the sum; a zero receiver takes y's format, as kube's does. */
  add(y: Quantity): Quantity {
    const e = Math.min(this.exponent, y.exponent);
    const m = this.mantissa * pow10(this.exponent - e) + y.mantissa * pow10(y.exponent - e);
    return new Quantity(m, e, this.isZero() ? y.format : this.format);
  }

  /** Sub: the difference; a zero receiver takes y's format. */
  sub(y: Quantity): Quantity {
    return this.add(y.neg());
  }

  /** Mul by an integer; ok is false when kube's int64 storage would have overflowed (the value stays exact). */
  mul(y: bigint | number): { quantity: Quantity; ok: boolean } {
    const m = this.mantissa * BigInt(y);
    return { quantity: new Quantity(m, m === 0n ? 0 : this.exponent, this.format), ok: m >= int64Min && m <= int64Max };
  }

  /** The same value written in another format. */
  withFormat(format: QuantityFormat | string): Quantity {
    return new Quantity(this.mantissa, this.exponent, format);
  }

  /** ScaledValue: the value in units of 10^scale, rounded away from zero (kube's int64 results may overflow; these do not). */
  scaledValue(scale: number): bigint {
    const r = roundAwayFromZero(this.mantissa, this.exponent, scale);
    return r.m * pow10(r.e - scale);
  }

  /** Value: the value rounded away from zero to an integer. */
  value(): bigint {
    return this.scaledValue(0);
  }

  /** MilliValue: the value in thousandths, rounded away from zero. */
  milliValue(): bigint {
    return this.scaledValue(Scale.Milli);
  }

  /** AsApproximateFloat64: mantissa as a float times Go's Pow10(exponent). */
  asApproximateFloat64(): number {
    const base = Number(this.mantissa);
    return this.exponent === 0 ? base : base * goPow10(this.exponent);
  }

  /** AsFloat64Slow: the float64 nearest the exact value. */
  asFloat64Slow(): number {
    return Number(`${this.mantissa}e${this.exponent}`);
  }

  /** The exact value as plain decimal text (no exponent), e.g. "102435.84"; for tests and messages. */
  toDecimalString(): string {
    if (this.exponent >= 0) return (this.mantissa * pow10(this.exponent)).toString();
    const digits = abs(this.mantissa).toString().padStart(-this.exponent + 1, '0');
    const cut = digits.length + this.exponent;
    const frac = digits.slice(cut).replace(/0+$/, '');
    return `${this.mantissa < 0n ? '-' : ''}${digits.slice(0, cut)}${frac ? `.${frac}` : ''}`;
  }

  /** String(): kube's canonical form (or the remembered text of a canonical input). */
  toString(): string {
    if (this.cached !== undefined) return this.cached;
    if (this.isZero()) return '0';
    let format = this.format;
    let rounded: Quantity = this;
    if (format === 'BinarySI') {
      if (this.cmpInt(-1024) > 0 && this.cmpInt(1024) < 0) format = 'DecimalSI';
      else {
        const r = this.roundUp(0);
        rounded = r.quantity;
        if (!r.exact) format = 'DecimalSI';
      }
    } else if (format !== 'DecimalSI') format = 'DecimalExponent';

    if (format === 'BinarySI') {
      let v = rounded.mantissa * pow10(rounded.exponent);
      let exp = 0;
      while (exp < 6 && v % 1024n === 0n) {
        v /= 1024n;
        exp++;
      }
      return `${v}${binarySuffixFor(exp * 10) ?? ''}`;
    }
    let m = this.mantissa;
    let e = this.exponent;
    while (m % 10n === 0n) {
      m /= 10n;
      e++;
    }
    while (e % 3 !== 0) {
      m *= 10n;
      e--;
    }
    // DecimalSI has no suffix past E (10^18) or below n; kube then writes a decimal exponent.
    const suffix = decimalSuffixFor(e, format as 'DecimalSI' | 'DecimalExponent') ?? decimalSuffixFor(e, 'DecimalExponent');
    return `${m}${suffix}`;
  }

  /** MarshalJSON's payload. */
  toJSON(): string {
    return this.toString();
  }
}

/** NewQuantity / NewMilliQuantity / NewScaledQuantity: value x 10^scale in format (DecimalSI by default). */
export function newQuantity(value: bigint | number, scale = 0, format: QuantityFormat | string = 'DecimalSI'): Quantity {
  return new Quantity(BigInt(value), scale, format);
}

/** NewDecimalQuantity from exact decimal text ("922.3372036854775807"), with no rounding. Throws QuantityError. */
export function newDecimalQuantity(text: string, format: QuantityFormat | string = 'DecimalSI'): Quantity {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(text);
  const whole = m?.[2] ?? '';
  const frac = m?.[3] ?? '';
  if (!m || whole + frac === '') throw new QuantityError(quantityNumericMessage);
  const digits = BigInt(whole + frac);
  return new Quantity(m[1] === '-' ? -digits : digits, -frac.length, format);
}

/** ParseQuantity: kube's parsing of str, with its error texts. Throws QuantityError. */
export function parseQuantity(str: string): Quantity {
  if (str.length === 0) throw new QuantityError(quantityFormatWrongMessage);
  if (str === '0') return new Quantity(0n, 0, 'DecimalSI', str);
  const { positive, value, num, denom, suffix } = scanQuantity(str);
  const meaning = interpretSuffix(suffix);
  if (!meaning) throw new QuantityError(quantitySuffixMessage);
  const { base, exponent, format } = meaning;

  // kube's int64 fast path: it decides only whether the input text is kept as the canonical form.
  let precision: number;
  if (format !== 'BinarySI') precision = 18 - (num.length + denom.length);
  else if (exponent >= 0 && denom.length === 0) precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
  else precision = -1;
  if (precision >= 0) {
    const scale = (format === 'BinarySI' ? 0 : exponent) - denom.length;
    if (scale >= Scale.Nano) {
      const shifted = num + denom;
      const digits = BigInt(shifted);
      const result = digits * (base === 2 ? 2n ** BigInt(exponent) : 1n);
      if (result <= int64Max) {
        const signed = positive ? result : -result;
        const canonical =
          format === 'BinarySI'
            ? exponent % 10 === 0 && (digits & 7n) !== 0n
            : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return new Quantity(signed, scale, format, canonical ? str : undefined);
      }
    }
  }

  // The general path: exact decimal arithmetic, rounded up to nano, BinarySI capped at 2^63-1.
  const dec = newDecimalQuantity(value);
  let m = abs(dec.mantissa);
  let e = dec.exponent;
  if (base === 10) e += exponent;
  else m *= 2n ** BigInt(exponent);
  let outFormat: QuantityFormat = format;
  if (m !== 0n) {
    // inf.Dec's Round leaves the amount at exactly nano scale.
    const r = roundAwayFromZero(m, e, Scale.Nano);
    m = r.m * pow10(r.e - Scale.Nano);
    e = Scale.Nano;
  }
  let amount = new Quantity(m, e, outFormat);
  if (format === 'BinarySI' && amount.cmpInt(int64Max) > 0) amount = new Quantity(int64Max, 0, outFormat);
  if (format === 'BinarySI' && amount.cmpInt(1) < 0 && amount.sign() > 0) outFormat = 'DecimalSI';
  const signed = dec.mantissa < 0n ? -amount.mantissa : amount.mantissa;
  return new Quantity(signed, amount.exponent, outFormat);
}

/**
 * Quantity.UnmarshalJSON over an already-decoded JSON value: strings are trimmed and parsed, numbers
 * are parsed from their text, null is the zero quantity. Throws QuantityError for anything else.
 */
export function quantityFromJSON(value: unknown): Quantity {
  if (value === null) return new Quantity(0n, 0, '');
  if (typeof value === 'string') return parseQuantity(value.trim());
  if (typeof value === 'number' && Number.isFinite(value)) return parseQuantity(String(value));
  throw new QuantityError(quantityFormatWrongMessage);
}

/** The parse error's text for value, or undefined when it parses. */
export function quantityErrorOf(value: unknown): string | undefined {
  try {
    quantityFromJSON(value);
    return undefined;
  } catch (err) {
    if (err instanceof QuantityError) return err.message;
    throw err;
  }
}
