/**
 * Go's encoding/json decode errors as kube's decoder (sigs.k8s.io/json, a fork of encoding/json)
 * reports them: a *json.UnmarshalTypeError renders as `json: cannot unmarshal <value> into Go struct
 * field <Struct>.<path> of type <goType>`, where Struct is the struct owning the innermost field and
 * path joins the JSON names of the struct fields walked from the root (no indexes, no map keys).
 * Other decode errors (base64, time, quantity, custom unmarshalers) are plain texts.
 */

/** The decoder's error context: the struct owning the current field and the field names so far. */
export interface ErrorContext {
  struct: string | undefined;
  readonly fields: string[];
}

/** A decode failure, rendered once the decode is over. */
export type DecodeFailure =
  | { readonly kind: 'type'; readonly value: string; readonly goType: string; readonly struct?: string; readonly field?: string }
  | { readonly kind: 'text'; readonly text: string };

/** Describes a JSON value the way UnmarshalTypeError.Value does for a mismatch without its literal. */
export function jsonKind(value: unknown): 'string' | 'number' | 'bool' | 'object' | 'array' | 'null' {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'boolean') return 'bool';
  return Array.isArray(value) ? 'array' : 'object';
}

/**
 * The literal text of a JSON number as Go saw it. Only the parsed value survives here, so `1.0` and
 * `1e3` come back as `1` and `1000`; integers are written out in full, as a client would send them.
 */
export function numberLiteral(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return BigInt(n).toString();
  return String(n);
}

/** An UnmarshalTypeError with the context of the moment it was raised (addErrorContext). */
export function typeFailure(value: string, goType: string, ctx: ErrorContext | undefined): DecodeFailure {
  if (ctx !== undefined && (ctx.struct !== undefined || ctx.fields.length > 0)) {
    return { kind: 'type', value, goType, struct: ctx.struct ?? '', field: ctx.fields.join('.') };
  }
  return { kind: 'type', value, goType };
}

/** Re-contexts a failure returned by a custom UnmarshalJSON: type errors take the outer context, others pass. */
export function withContext(failure: DecodeFailure, ctx: ErrorContext): DecodeFailure {
  return failure.kind === 'type' ? typeFailure(failure.value, failure.goType, ctx) : failure;
}

/** The error text, as err.Error() gives it. */
export function renderFailure(failure: DecodeFailure): string {
  if (failure.kind === 'text') return failure.text;
  if (failure.struct !== undefined || failure.field !== undefined) {
    return `json: cannot unmarshal ${failure.value} into Go struct field ${failure.struct ?? ''}.${failure.field ?? ''} of type ${failure.goType}`;
  }
  return `json: cannot unmarshal ${failure.value} into Go value of type ${failure.goType}`;
}
