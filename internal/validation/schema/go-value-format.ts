/**
 * Go's `%#v` rendering of unstructured JSON values (map[string]interface{}, []interface{}, int64,
 * float64, string, bool, nil), which is how field.ErrorList renders a composite bad value such as
 * the key of a duplicate list-map entry: `map[string]interface {}{"name":"a", "port":80}`.
 */
import { goQuote } from '../field-error.js';
import { isJsonObject } from './json-copy.js';

/** A float64 as `%v` prints it: shortest digits, exponent form below 1e-4 and from 1e6 (strconv's %g). */
function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

/**
 * Renders a decoded JSON value as Go's `%#v` would after kube decoded it (integers as int64,
 * other numbers as float64). Map keys come out sorted, as fmt sorts them.
 */
export function goSharpV(value: unknown): string {
  if (value === null || value === undefined) return 'interface {}(nil)';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 2 ** 63 ? BigInt(value).toString() : goFloat(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map(goSharpV).join(', ')}}`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).sort();
    return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSharpV(value[k])}`).join(', ')}}`;
  }
  return String(value);
}
