/**
 * The codec's one error type. Callers (content negotiation, request decoding) turn it into a
 * 400 BadRequest (malformed body) or 406/415 (kind not serialisable as Protobuf); it never means
 * a server fault.
 */

/** Why a Protobuf conversion failed. */
export type ProtobufErrorCode =
  | 'MissingMagic' // the body does not start with "k8s\0"
  | 'Truncated' // the wire data ends inside a field
  | 'Malformed' // bad wire type, bad length, invalid UTF-8 or an embedded value that does not parse
  | 'UnknownKind' // no protobuf message for the apiVersion/kind
  | 'UnknownMessage' // no such message full name
  | 'InvalidValue'; // a JSON value does not fit its field (e.g. a string where a number belongs)

/** A typed failure of the Protobuf codec; `path` names the JSON path or field where it happened. */
export class ProtobufError extends Error {
  override readonly name = 'ProtobufError';
  constructor(
    readonly code: ProtobufErrorCode,
    message: string,
    readonly path?: string,
  ) {
    super(path ? `${message} (at ${path})` : message);
  }
}
