/**
 * apimachinery's ValidateImmutableField: a field that may not change once the object exists.
 */
import { invalid, type FieldError } from '../../../validation/field-error.js';
import { semanticEqual } from './semantic-equal.js';

/** kube's FieldImmutableErrorMsg. */
export const fieldImmutableErrorMsg = 'field is immutable';

/** One Invalid error at path carrying the new value when newVal differs semantically from oldVal. */
export function validateImmutableField(newVal: unknown, oldVal: unknown, path: string): FieldError[] {
  return semanticEqual(newVal, oldVal) ? [] : [invalid(path, newVal ?? null, fieldImmutableErrorMsg)];
}

/** kube's IsNegativeErrorMsg. */
export const isNegativeErrorMsg = 'must be greater than or equal to 0';

/** ValidateNonnegativeField: an Invalid error when value is a negative number. */
export function validateNonnegativeField(value: unknown, path: string): FieldError[] {
  return typeof value === 'number' && value < 0 ? [invalid(path, value, isNegativeErrorMsg)] : [];
}
