/**
 * intstr.IntOrString checks of apps and policy validation: ValidatePositiveIntOrPercent and
 * IsNotMoreThan100Percent, and the value of an int-or-percent for the "both zero" rules.
 */
import { invalid, type FieldError } from '../../validation/field-error.js';
import { regexError } from '../../validation/label-values.js';
import { validateNonnegativeField } from '../core/shared/field-immutable.js';

const percentRegexp = /^[0-9]+%$/;

/** validation.IsValidPercent's message. */
export const percentErrorMsg = regexError("a valid percent string must be a numeric string followed by an ending '%'", '[0-9]+%', '1%', '93%');

/** ValidatePositiveIntOrPercent: a non-negative integer or a "N%" string. Absent values pass. */
export function validatePositiveIntOrPercent(value: unknown, path: string): FieldError[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return percentRegexp.test(value) ? [] : [invalid(path, value, percentErrorMsg)];
  return validateNonnegativeField(value, path);
}

/** The percentage of a "N%" value, or undefined when value is not a percent string. */
export function percentValue(value: unknown): number | undefined {
  if (typeof value !== 'string' || !percentRegexp.test(value)) return undefined;
  return Number(value.slice(0, -1));
}

/** IsNotMoreThan100Percent. */
export function isNotMoreThan100Percent(value: unknown, path: string): FieldError[] {
  const p = percentValue(value);
  return p !== undefined && p > 100 ? [invalid(path, value, 'must not be greater than 100%')] : [];
}

/** getIntOrPercentValue: the integer, or the percentage number of a percent string (0 when unparsable). */
export function intOrPercentValue(value: unknown): number {
  if (typeof value === 'number') return value;
  const p = percentValue(value);
  if (p !== undefined) return p;
  if (typeof value === 'string') {
    const n = Number.parseInt(value, 10);
    return Number.isNaN(n) ? 0 : n;
  }
  return 0;
}
