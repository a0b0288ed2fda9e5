/**
 * How kube-apiserver reports a patch whose result it cannot decode into the kind (patch.go): not
 * the 400 of a body that does not decode, but 422 Invalid with no kind and no name, one cause on the
 * field `patch` whose bad value is the patched object's JSON (JSON and merge patches) or the patch
 * as Go prints a map with %+v (strategic merge patches):
 *   ` "" is invalid: patch: Invalid value: "{...}": json: cannot unmarshal string into ...`
 * The same goes for strict field validation's findings (`strict decoding error: ...`).
 */
import type { StatusError } from '../../apierrors/status-error.js';
import { newInvalid } from '../../apierrors/factories.js';
import { fieldErrorCause, invalid } from '../../validation/field-error.js';

/** The 422 kube gives for a patch result that does not decode, or that strict validation refuses. */
export function patchResultInvalid(badValue: string, detail: string): StatusError {
  return newInvalid('', '', '', [fieldErrorCause(invalid('patch', badValue, detail))]);
}

/**
 * A float64 as Go's %v prints it (strconv.FormatFloat 'g' with the shortest digits: %e when the
 * exponent is below -4 or at least 6, with at least two exponent digits; %f otherwise).
 */
export function goFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, e] = n.toExponential().split('e') as [string, string];
  const x = Number(e);
  if (x < -4 || x >= 6) return `${mantissa}e${x < 0 ? '-' : '+'}${String(Math.abs(x)).padStart(2, '0')}`;
  const digits = mantissa.replace(/[-.]/g, '').length;
  return n.toFixed(Math.max(0, digits - 1 - x));
}

/**
 * A value decoded by kube's patch decoder (sigs.k8s.io/json, integers kept as int64, other numbers
 * float64) printed as Go's fmt prints map[string]interface{} with %+v: `map[k:v ...]` with keys
 * sorted, slices `[a b]`, strings bare, nil `<nil>`. floats names the paths (StrictJson's
 * numberLiterals) whose numbers were written with a fraction or an exponent: those are float64.
 */
export function goSprintValue(value: unknown, floats?: ReadonlyMap<string, string>, path = ''): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    const isFloat = floats?.has(path) === true || !Number.isInteger(value) || Math.abs(value) >= 9223372036854775808;
    return isFloat ? goFloat(value) : BigInt(value).toString();
  }
  if (Array.isArray(value)) return `[${value.map((v, i) => goSprintValue(v, floats, `${path}[${i}]`)).join(' ')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
  return `map[${keys.map((k) => `${k}:${goSprintValue(obj[k], floats, path ? `${path}.${k}` : k)}`).join(' ')}]`;
}
