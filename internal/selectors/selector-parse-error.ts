/**
 * The error label and field selector parsing throws. Its message is kube's own text, so the
 * apiserver can pass it on verbatim in a 400 BadRequest.
 */
import type { FieldError } from '../validation/field-error.js';

/** A selector (or selector requirement) that kube would reject; `message` is kube's error text. */
export class SelectorParseError extends Error {
  override readonly name = 'SelectorParseError';
  /** The field errors behind the failure, when it came from requirement validation (else empty). */
  readonly fieldErrors: readonly FieldError[];

  /** Wraps kube's error text and, when known, the field errors it aggregates. */
  constructor(message: string, fieldErrors: readonly FieldError[] = []) {
    super(message);
    this.fieldErrors = fieldErrors;
  }
}
