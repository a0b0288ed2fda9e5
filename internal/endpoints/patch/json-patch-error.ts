/**
 * The two ways applying a JSON patch fails in gopkg.in/evanphx/json-patch.v4 (v4.12.0), the library
 * kube-apiserver 1.33 applies `application/json-patch+json` with.
 */

/** An error the library returns; the message is its text, e.g. `testing value /a failed: test failed`. */
export class PatchApplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatchApplyError';
  }
}

/**
 * A place where the library panics instead of returning an error (a nil pointer or a nil map
 * reached through a JSON null); the message is the Go runtime's text. kube-apiserver answers these
 * with its 500 panic page; Capstan answers them like any other patch that does not apply.
 */
export class PatchPanic extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatchPanic';
  }
}

/** The Go runtime's text for dereferencing a nil pointer. */
export const nilDereference = 'runtime error: invalid memory address or nil pointer dereference';

/** The Go runtime's text for writing to a nil map. */
export const nilMapWrite = 'assignment to entry in nil map';

/** The JSON kind of a value as Go's decoder names it in "cannot unmarshal <kind> into ...". */
export function goJsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}
