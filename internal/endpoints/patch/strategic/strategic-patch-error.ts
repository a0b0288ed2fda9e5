/**
 * The one error type strategic merge patch throws, tagged with how the API server answers it.
 */

/**
 * How a patch error is answered. kube-apiserver's patch handler maps the mergepatch sentinel errors
 * for a malformed patch to 400 (BadRequest) and "lists of lists" / "content doesn't match
 * retainKeys" to 422 (Invalid); a three-way conflict is Conflict. Every other error (a missing merge
 * key, an unknown `$patch` value, a field the type does not have, ...) kube returns unwrapped, which
 * becomes a 500; Capstan answers those 400 too, since they are the client's mistake.
 */
export type StrategicPatchErrorKind = 'BadRequest' | 'Invalid' | 'Conflict';

/** An error while creating or applying a strategic merge patch; the message is kube's text. */
export class StrategicPatchError extends Error {
  readonly kind: StrategicPatchErrorKind;

  constructor(kind: StrategicPatchErrorKind, message: string) {
    super(message);
    this.name = 'StrategicPatchError';
    this.kind = kind;
  }
}
