/**
 * The Kubernetes Protobuf codec: whole objects in and out of `application/vnd.kubernetes.protobuf`
 * bodies (envelope + message), using the group/version/kind table generated from the API data.
 * This is the module the rest of the server imports; the pieces live beside it (envelope.ts,
 * fast-*.ts, special-types.ts, registry.ts).
 *
 * Every call runs the compiled codec (fast-codec.ts) first; where it declines (errors, unusual
 * encodings) the reference walk (reference.ts: decode.ts, encode.ts) runs instead and gives the
 * result or the typed error with its field path. Both produce the same bytes and objects
 * (proto/fast-codec.test.ts checks that).
 */
import type { DecodeOptions } from './decode.js';
import { fastDecodeObject, fastEncodeObject, fastJsonToProtobuf, fastProtobufToJson } from './fast-codec.js';
import { ProtobufError } from './errors.js';
import { messageForTypeMeta, referenceDecodeObject, referenceEncodeObject, referenceJsonToProtobuf, referenceProtobufToJson } from './reference.js';
import type { JsonObject, JsonValue } from './types.js';

export { decodeEnvelope, encodeEnvelope, hasProtobufMagic, PROTOBUF_MAGIC, type Envelope, type EnvelopeTypeMeta } from './envelope.js';
export { ProtobufError, type ProtobufErrorCode } from './errors.js';
export { allKinds, hasMessage, kindsOfMessage, messageForKind } from './registry.js';
export { findMessageForTypeMeta, messageForTypeMeta } from './reference.js';
export type { DecodeOptions } from './decode.js';
export type { GroupVersionKind, JsonObject, JsonValue } from './types.js';

/** Options of decodeObject and protobufToJson. */
export type ObjectDecodeOptions = Omit<DecodeOptions, 'decodeEnvelope'>;

/**
 * Decodes the wire bytes of one message (no envelope) to its JSON form, as kube-apiserver would
 * serve it. RawExtensions holding a nested envelope are decoded as objects.
 */
export function protobufToJson(messageFullName: string, bytes: Uint8Array, options: ObjectDecodeOptions = {}): JsonValue {
  try {
    return fastProtobufToJson(messageFullName, bytes, options.bigints ?? false, (b) => decodeObject(b, options));
  } catch {
    return referenceProtobufToJson(messageFullName, bytes, options);
  }
}

/** Encodes the JSON form of one message to its wire bytes (no envelope). */
export function jsonToProtobuf(messageFullName: string, obj: JsonValue): Uint8Array {
  try {
    return fastJsonToProtobuf(messageFullName, obj);
  } catch {
    return referenceJsonToProtobuf(messageFullName, obj);
  }
}

/**
 * Decodes a whole Protobuf body (envelope + message) into the object's JSON form with `kind` and
 * `apiVersion` set first, as kube writes them. Throws ProtobufError (MissingMagic, Truncated,
 * Malformed, UnknownKind).
 */
export function decodeObject(buf: Uint8Array, options: ObjectDecodeOptions = {}): JsonObject {
  try {
    return fastDecodeObject(buf, options.bigints ?? false, messageForTypeMeta, (b) => decodeObject(b, options));
  } catch {
    return referenceDecodeObject(buf, options);
  }
}

/**
 * Encodes an object's JSON form (which must carry `apiVersion` and `kind`) into a whole Protobuf
 * body, byte for byte as kube-apiserver writes it where the presence rules allow (proto/README.md).
 * Does not mutate `obj`. The result is a Buffer of its own.
 */
export function encodeObject(obj: JsonObject): Uint8Array {
  const apiVersion = obj['apiVersion'];
  const kind = obj['kind'];
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    throw new ProtobufError('UnknownKind', 'object has no string apiVersion and kind');
  }
  const message = messageForTypeMeta(apiVersion, kind);
  try {
    return fastEncodeObject(message, apiVersion, kind, obj);
  } catch {
    return referenceEncodeObject(obj);
  }
}
