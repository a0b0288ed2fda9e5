/**
 * The texts kube-apiserver uses for unknown fields under each fieldValidation directive: one
 * `unknown field "spec.foo"` warning per field for Warn, one `strict decoding error: ...` (400) for
 * Strict. sigs.k8s.io/json quotes the path with strconv.Quote, drops repeats and keeps at most 100.
 */
import { goQuote } from '../field-error.js';

/** sigs.k8s.io/json stops collecting strict errors after this many. */
export const maxStrictErrors = 100;

/** `unknown field "<path>"`: the warning text (Warn) and one entry of the strict error (Strict). */
export function unknownFieldMessage(path: string): string {
  return `unknown field ${goQuote(path)}`;
}

/** The unknown-field messages kube reports for these paths: deduplicated, first 100, in order. */
export function unknownFieldMessages(paths: readonly string[]): string[] {
  return [...new Set(paths)].slice(0, maxStrictErrors).map(unknownFieldMessage);
}

/**
 * The message of the 400 BadRequest for fieldValidation=Strict (runtime.NewStrictDecodingError),
 * `strict decoding error: unknown field "spec.foo", unknown field "spec.bar"`; the handler prefixes
 * it with `<Kind> in version "<v>" cannot be handled as a <Kind>: ` as for decode errors.
 */
export function strictDecodingErrorMessage(paths: readonly string[]): string {
  return `strict decoding error: ${unknownFieldMessages(paths).join(', ')}`;
}
