/**
 * The Kubernetes Protobuf codec: whole objects in and out of `application/vnd.kubernetes.protobuf`
 * bodies (envelope + message), using the group/version/kind table generated from the API data.
 * This is the module the rest of the server imports; the pieces live beside it (envelope.ts,
 * decode.ts, encode.ts, special-types.ts, registry.ts).
 */
import { protobufToJson as decodeMessage, type DecodeOptions } from './decode.js';
import { jsonToProtobuf as encodeMessage } from './encode.js';
import { decodeEnvelope, encodeEnvelope } from './envelope.js';
import { ProtobufError } from './errors.js';
import { messageForKind, parseApiVersion } from './registry.js';
import type { JsonObject, JsonValue } from './types.js';

export { decodeEnvelope, encodeEnvelope, hasProtobufMagic, PROTOBUF_MAGIC, type Envelope, type EnvelopeTypeMeta } from './envelope.js';
export { ProtobufError, type ProtobufErrorCode } from './errors.js';
export { allKinds, hasMessage, kindsOfMessage, messageForKind } from './registry.js';
export type { DecodeOptions } from './decode.js';
export type { GroupVersionKind, JsonObject, JsonValue } from './types.js';

/** Options of decodeObject and protobufToJson. */
export type ObjectDecodeOptions = Omit<DecodeOptions, 'decodeEnvelope'>;

/**
 * Decodes the wire bytes of one message (no envelope) to its JSON form, as kube-apiserver would
 * serve it. RawExtensions holding a nested envelope are decoded as objects.
 */
export function protobufToJson(messageFullName: string, bytes: Uint8Array, options: ObjectDecodeOptions = {}): JsonValue {
  return decodeMessage(messageFullName, bytes, { ...options, decodeEnvelope: (b) => decodeObject(b, options) });
}

/** Encodes the JSON form of one message to its wire bytes (no envelope). */
export function jsonToProtobuf(messageFullName: string, obj: JsonValue): Uint8Array {
  return encodeMessage(messageFullName, obj);
}

/** The message full name for an apiVersion/kind; throws ProtobufError('UnknownKind') when there is none. */
export function messageForTypeMeta(apiVersion: string, kind: string): string {
  const { group, version } = parseApiVersion(apiVersion);
  const name = kind ? messageForKind(group, version, kind) : undefined;
  if (!name) throw new ProtobufError('UnknownKind', `no protobuf message for kind ${JSON.stringify(kind)} in ${JSON.stringify(apiVersion)}`);
  return name;
}

/**
 * Decodes a whole Protobuf body (envelope + message) into the object's JSON form with `kind` and
 * `apiVersion` set first, as kube writes them. Throws ProtobufError (MissingMagic, Truncated,
 * Malformed, UnknownKind).
 */
export function decodeObject(buf: Uint8Array, options: ObjectDecodeOptions = {}): JsonObject {
  const envelope = decodeEnvelope(buf);
  if (envelope.contentEncoding) {
    throw new ProtobufError('Malformed', `unsupported envelope contentEncoding ${JSON.stringify(envelope.contentEncoding)}`);
  }
  const message = messageForTypeMeta(envelope.apiVersion, envelope.kind);
  const body = protobufToJson(message, envelope.raw, options) as JsonObject;
  return { kind: envelope.kind, apiVersion: envelope.apiVersion, ...body };
}

/**
 * Encodes an object's JSON form (which must carry `apiVersion` and `kind`) into a whole Protobuf
 * body, byte for byte as kube-apiserver writes it where the presence rules allow (proto/README.md).
 * Does not mutate `obj`.
 */
export function encodeObject(obj: JsonObject): Uint8Array {
  const apiVersion = obj['apiVersion'];
  const kind = obj['kind'];
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    throw new ProtobufError('UnknownKind', 'object has no string apiVersion and kind');
  }
  const message = messageForTypeMeta(apiVersion, kind);
  return encodeEnvelope({ apiVersion, kind }, encodeMessage(message, obj));
}
