/**
 * Field-level validation errors shaped like k8s.io/apimachinery/pkg/util/validation/field
 * (v0.33): the error type doubles as the metav1 StatusCause reason, and the texts render
 * exactly as field.Error.Error() and ErrorList.ToAggregate().Error() do, so clients that
 * match on messages keep working.
 */

/** The machine-readable error kinds; each string is also the StatusCause reason (metav1.CauseType). */
export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

/** One field's validation failure. Immutable once built; build it with the factories below. */
export interface FieldError {
  readonly type: FieldErrorType;
  /** The rendered field path, e.g. `spec.selector.matchExpressions[0].key`, or `<nil>`. */
  readonly field: string;
  /** The offending value, rendered Go-style in the message (absent for Required/Forbidden/TooLong/Internal). */
  readonly badValue?: unknown;
  readonly detail: string;
}

/** A field path under construction; `undefined` stands for Go's nil *field.Path, which renders as `<nil>`. */
export type FieldPath = string | undefined;

/** Marks a Go nil slice as a bad value: it renders as `[]string(nil)` where an empty slice renders `[]string{}`. */
export class GoNilSlice {
  /** Takes the Go element type name used in the rendering. */
  constructor(readonly elementType: string = 'string') {}
}

/**
 * A bad value already rendered as Go's `%#v` would print it (a struct such as
 * `authorization.NonResourceAttributes{Path:"/x", Verb:"get"}`): the message shows the text as is.
 */
export class GoLiteral {
  constructor(readonly text: string) {}
}

/** The bad value TooMany carries when the actual count is unknown; the message then omits it. */
export const omittedValue: unique symbol = Symbol('omittedValue');

/** The canonical text of each error type, as field.ErrorType.String() gives it. */
export const fieldErrorTypeText: Readonly<Record<FieldErrorType, string>> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Renders a path for use in an error: `<nil>` for the nil path. */
export function pathString(path: FieldPath): string {
  return path === undefined ? '<nil>' : path;
}

/** Appends named children to a path (`a` + `b` → `a.b`); a nil parent yields just the names. */
export function childPath(parent: FieldPath, name: string, ...moreNames: string[]): string {
  let out = parent === undefined ? name : `${parent}.${name}`;
  for (const more of moreNames) out = `${out}.${more}`;
  return out;
}

/** Subscripts a path with a list index (`a` → `a[3]`). */
export function indexPath(parent: FieldPath, index: number): string {
  return `${parent ?? ''}[${index}]`;
}

/** Subscripts a path with a map key (`a` → `a[k]`); the key is written verbatim, as kube does. */
export function keyPath(parent: FieldPath, key: string): string {
  return `${parent ?? ''}[${key}]`;
}

/** field.Invalid: a malformed value. */
export function invalid(path: FieldPath, badValue: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: pathString(path), badValue, detail };
}

/** field.TypeInvalid: a value of the wrong schema type. */
export function typeInvalid(path: FieldPath, badValue: unknown, detail: string): FieldError {
  return { type: 'FieldValueTypeInvalid', field: pathString(path), badValue, detail };
}

/** field.Required: a missing value; the detail may be empty. */
export function required(path: FieldPath, detail: string): FieldError {
  return { type: 'FieldValueRequired', field: pathString(path), badValue: '', detail };
}

/** field.Forbidden: a value not allowed under the current conditions. */
export function forbidden(path: FieldPath, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field: pathString(path), badValue: '', detail };
}

/** field.Duplicate: a value that must be unique was repeated. */
export function duplicate(path: FieldPath, badValue: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field: pathString(path), badValue, detail: '' };
}

/** field.NotFound: a referenced value does not exist. */
export function notFound(path: FieldPath, badValue: unknown): FieldError {
  return { type: 'FieldValueNotFound', field: pathString(path), badValue, detail: '' };
}

/** field.NotSupported: a value outside an enumeration; the supported values are listed quoted. */
export function notSupported(path: FieldPath, badValue: unknown, supported: readonly string[]): FieldError {
  const detail = supported.length > 0 ? `supported values: ${supported.map(goQuote).join(', ')}` : '';
  return { type: 'FieldValueNotSupported', field: pathString(path), badValue, detail };
}

/** field.TooLong: a value over maxLength bytes; the value itself is left out of the message. */
export function tooLong(path: FieldPath, maxLength: number): FieldError {
  const detail = maxLength >= 0 ? `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}` : 'value is too long';
  return { type: 'FieldValueTooLong', field: pathString(path), badValue: '<value omitted>', detail };
}

/** field.TooMany: a list over maxQuantity items; a negative actual count is omitted. */
export function tooMany(path: FieldPath, actualQuantity: number, maxQuantity: number): FieldError {
  const detail = maxQuantity >= 0 ? `must have at most ${maxQuantity} ${maxQuantity === 1 ? 'item' : 'items'}` : 'has too many items';
  return {
    type: 'FieldValueTooMany',
    field: pathString(path),
    badValue: actualQuantity >= 0 ? actualQuantity : omittedValue,
    detail,
  };
}

/** field.InternalError: a failure not caused by the user's input. */
export function internalError(path: FieldPath, err: Error): FieldError {
  return { type: 'InternalError', field: pathString(path), detail: err.message };
}

/** The StatusCause reason for an error type (kube's CauseType strings equal the error types). */
export function statusCauseReason(type: FieldErrorType): string {
  return type;
}

/** The error text without its field, as field.Error.ErrorBody() renders it. */
export function fieldErrorBody(err: FieldError): string {
  let body: string;
  switch (err.type) {
    case 'FieldValueRequired':
    case 'FieldValueForbidden':
    case 'FieldValueTooLong':
    case 'InternalError':
      body = fieldErrorTypeText[err.type];
      break;
    default:
      body =
        err.badValue === omittedValue
          ? fieldErrorTypeText[err.type]
          : `${fieldErrorTypeText[err.type]}: ${renderGoValue(err.badValue)}`;
  }
  return err.detail.length > 0 ? `${body}: ${err.detail}` : body;
}

/** The whole error text, `<field>: <body>`, as field.Error.Error() renders it. */
export function fieldErrorMessage(err: FieldError): string {
  return `${err.field}: ${fieldErrorBody(err)}`;
}

/**
 * Joins messages the way utilerrors.Aggregate.Error() does: duplicates dropped, a single message
 * as is, several as `[a, b]`; no messages give the empty string.
 */
export function aggregateMessages(messages: readonly string[]): string {
  const unique = [...new Set(messages)];
  if (unique.length <= 1) return unique[0] ?? '';
  return `[${unique.join(', ')}]`;
}

/** The text of ErrorList.ToAggregate().Error() for the given errors ('' when there are none). */
export function fieldErrorsMessage(errs: readonly FieldError[]): string {
  return aggregateMessages(errs.map(fieldErrorMessage));
}

/** The pieces kube puts in a StatusCause for a field error, plus the full text for the Status message. */
export interface FieldErrorCause {
  readonly reason: string;
  readonly field: string;
  readonly message: string;
  readonly text: string;
}

/** Converts a field error into its StatusCause parts, as apierrors.NewInvalid does. */
export function fieldErrorCause(err: FieldError): FieldErrorCause {
  return { reason: statusCauseReason(err.type), field: err.field, message: fieldErrorBody(err), text: fieldErrorMessage(err) };
}

const printableRune = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
const controlEscapes: Readonly<Record<number, string>> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r' };

/** Quotes a string as Go's strconv.Quote / `%q` does (double quotes, Go escapes, printable runes kept). */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp === 0x22) out += '\\"';
    else if (cp === 0x5c) out += '\\\\';
    else if (cp >= 0x20 && cp < 0x7f) out += ch;
    else if (cp < 0x20 || cp === 0x7f) out += controlEscapes[cp] ?? `\\x${cp.toString(16).padStart(2, '0')}`;
    // A lone surrogate cannot exist in a Go string: JSON decoding turns it into U+FFFD.
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\ufffd';
    else if (printableRune.test(ch)) out += ch;
    else if (cp < 0x10000) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** Formats a number as Go's `%v` does: integers as int64, other floats in shortest `%g` form. */
function goNumber(n: number): string {
  if (Number.isInteger(n)) return BigInt(n).toString();
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  const [mantissa, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(n);
}

/** Renders a bad value as ErrorBody does: strings quoted, simple scalars bare, string slices in `%#v` form. */
function renderGoValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof GoNilSlice) return `[]${value.elementType}(nil)`;
  if (value instanceof GoLiteral) return value.text;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return `[]string{${value.map((v: string) => goQuote(v)).join(', ')}}`;
  }
  // Go would print a struct with %#v; JSON is the closest stable rendering we can give.
  return JSON.stringify(value) ?? String(value);
}
