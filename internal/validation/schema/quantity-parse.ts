/**
 * resource.Quantity's JSON decoding (Quantity.UnmarshalJSON + ParseQuantity), reduced to its error:
 * the raw JSON text (quotes stripped, whitespace trimmed) must scan as a quantity, else one of
 * apimachinery's three fixed errors comes back unwrapped and ends the decode.
 */

/** apimachinery's ErrFormatWrong text. */
export const quantityFormatError = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** apimachinery's ErrSuffix text. */
export const quantitySuffixError = "unable to parse quantity's suffix";
/** apimachinery's ErrNumeric text. */
export const quantityNumericError = 'unable to parse numeric part of quantity';

const decimalSuffixes: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const suffixChars = 'eEinumkKMGTP';
const int64Max = 9223372036854775807n;

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

interface Scanned {
  readonly value: string;
  readonly num: string;
  readonly denom: string;
  readonly suffix: string;
}

/** parseQuantityString: sign, digits, optional fraction, suffix; undefined is ErrFormatWrong. */
function scan(str: string): Scanned | undefined {
  const end = str.length;
  let pos = 0;
  if (str[0] === '-' || str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  if (i >= end) return { value: str, num: str.slice(pos), denom: '', suffix: '' };
  let num = str.slice(pos, i);
  pos = i;
  if (num.length === 0) num = '0';
  let denom = '';
  if (str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    if (i >= end) return { value: str, num, denom: str.slice(pos), suffix: '' };
    denom = str.slice(pos, i);
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  i = pos;
  while (i < end && suffixChars.includes(str[i] as string)) i++;
  if (i >= end) return { value, num, denom, suffix: str.slice(suffixStart) };
  pos = i;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  i = pos;
  while (i < end && isDigit(str[i])) i++;
  if (i >= end) return { value, num, denom, suffix: str.slice(suffixStart) };
  return undefined;
}

/** quantitySuffixer.interpret: base, exponent and format of a suffix, or undefined. */
function interpret(suffix: string): { exponent: number; format: 'DecimalSI' | 'BinarySI' | 'DecimalExponent' } | undefined {
  if (Object.prototype.hasOwnProperty.call(decimalSuffixes, suffix)) return { exponent: decimalSuffixes[suffix] as number, format: 'DecimalSI' };
  if (Object.prototype.hasOwnProperty.call(binarySuffixes, suffix)) return { exponent: binarySuffixes[suffix] as number, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    // strconv.ParseInt(suffix[1:], 10, 64): optional sign, digits, within int64.
    const m = /^([+-]?)([0-9]+)$/.exec(suffix.slice(1));
    if (!m) return undefined;
    const magnitude = BigInt(m[2] as string);
    if (magnitude > int64Max + (m[1] === '-' ? 1n : 0n)) return undefined;
    // Go keeps int32(parsed): the low 32 bits, as a signed number.
    const exponent = Number(BigInt.asIntN(32, m[1] === '-' ? -magnitude : magnitude));
    return { exponent, format: 'DecimalExponent' };
  }
  return undefined;
}

/** The error ParseQuantity(str) returns, or undefined when str is a quantity. */
export function parseQuantityError(str: string): string | undefined {
  if (str.length === 0) return quantityFormatError;
  if (str === '0') return undefined;
  const scanned = scan(str);
  if (scanned === undefined) return quantityFormatError;
  const suffix = interpret(scanned.suffix);
  if (suffix === undefined) return quantitySuffixError;
  let precision: number;
  let scale = 0;
  if (suffix.format === 'BinarySI') {
    precision = suffix.exponent >= 0 && scanned.denom.length === 0
      ? 15 - scanned.num.length - Math.trunc(Math.fround(suffix.exponent * 3) / 10) - 1
      : -1;
  } else {
    scale = suffix.exponent;
    precision = 18 - (scanned.num.length + scanned.denom.length);
  }
  // The int64 fast path cannot fail within its precision; the inf.Dec path fails only without digits.
  if (precision >= 0 && scale - scanned.denom.length >= -9) return undefined;
  return /[0-9]/.test(scanned.value) ? undefined : quantityNumericError;
}

/**
 * The text Quantity.UnmarshalJSON hands to ParseQuantity for a decoded JSON value: a string's
 * contents as they were written (JSON escapes are re-created, as the raw bytes had them), or the
 * literal text of a number, bool or container. Whitespace is trimmed as strings.TrimSpace does.
 */
export function quantityText(value: unknown): string {
  if (typeof value === 'string') {
    // eslint-disable-next-line no-control-regex
    const raw = /["\\\u0000-\u001f]/.test(value) ? JSON.stringify(value).slice(1, -1) : value;
    return raw.trim();
  }
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 1e21 ? BigInt(value).toString() : String(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return '[';
  return '{';
}
