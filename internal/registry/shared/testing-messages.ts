/**
 * Test helper: field errors as the "<field>: <body>" lines kube prints, for table tests of
 * validation rules. Test code only.
 */
import { fieldErrorMessage, type FieldError } from '../../validation/field-error.js';

/** Each error as kube's field.Error.Error() text. */
export function messages(errs: readonly FieldError[]): string[] {
  return errs.map(fieldErrorMessage);
}
