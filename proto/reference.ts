/**
 * The reference codec: the generic walk over message descriptors (decode.ts, encode.ts). The
 * compiled codec (compiled-*.ts) must produce exactly its bytes and objects; codec.ts falls back
 * to it to report an error with its field path, and the property tests compare the two.
 */
import { protobufToJson as decodeMessage, type DecodeOptions } from './decode.js';
import { jsonToProtobuf as encodeMessage } from './encode.js';
import { decodeEnvelope, encodeEnvelope } from './envelope.js';
import { ProtobufError } from './errors.js';
import { messageForKind, parseApiVersion } from './registry.js';
import type { JsonObject, JsonValue } from './types.js';

const byTypeMeta = new Map<string, Map<string, string | null>>();

/** The message full name for an apiVersion/kind, or undefined when it has none (custom resources); memoised per apiVersion and kind. */
export function findMessageForTypeMeta(apiVersion: string, kind: string): string | undefined {
  let kinds = byTypeMeta.get(apiVersion);
  let name = kinds?.get(kind);
  if (name === undefined) {
    const { group, version } = parseApiVersion(apiVersion);
    name = (kind ? messageForKind(group, version, kind) : undefined) ?? null;
    // Bounded: clients can send any apiVersion and kind, so past 1,000 of either the memo stops growing.
    if (!kinds && byTypeMeta.size < 1000) byTypeMeta.set(apiVersion, (kinds = new Map()));
    if (kinds && kinds.size < 1000) kinds.set(kind, name);
  }
  return name ?? undefined;
}

/** The message full name for an apiVersion/kind; throws ProtobufError('UnknownKind') when there is none. */
export function messageForTypeMeta(apiVersion: string, kind: string): string {
  const name = findMessageForTypeMeta(apiVersion, kind);
  if (!name) throw new ProtobufError('UnknownKind', `no protobuf message for kind ${JSON.stringify(kind)} in ${JSON.stringify(apiVersion)}`);
  return name;
}

/** Decodes one message's bytes with the reference walk; nested envelopes in RawExtensions are decoded as objects. */
export function referenceProtobufToJson(messageFullName: string, bytes: Uint8Array, options: Omit<DecodeOptions, 'decodeEnvelope'> = {}): JsonValue {
  return decodeMessage(messageFullName, bytes, { ...options, decodeEnvelope: (b) => referenceDecodeObject(b, options) });
}

/** Encodes one message with the reference walk. */
export function referenceJsonToProtobuf(messageFullName: string, obj: JsonValue): Uint8Array {
  return encodeMessage(messageFullName, obj);
}

/** decodeObject of codec.ts, done by the reference walk. */
export function referenceDecodeObject(buf: Uint8Array, options: Omit<DecodeOptions, 'decodeEnvelope'> = {}): JsonObject {
  const envelope = decodeEnvelope(buf);
  if (envelope.contentEncoding) {
    throw new ProtobufError('Malformed', `unsupported envelope contentEncoding ${JSON.stringify(envelope.contentEncoding)}`);
  }
  const message = messageForTypeMeta(envelope.apiVersion, envelope.kind);
  const body = referenceProtobufToJson(message, envelope.raw, options) as JsonObject;
  return { kind: envelope.kind, apiVersion: envelope.apiVersion, ...body };
}

/** encodeObject of codec.ts, done by the reference walk. */
export function referenceEncodeObject(obj: JsonObject): Uint8Array {
  const apiVersion = obj['apiVersion'];
  const kind = obj['kind'];
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
    throw new ProtobufError('UnknownKind', 'object has no string apiVersion and kind');
  }
  const message = messageForTypeMeta(apiVersion, kind);
  return encodeEnvelope({ apiVersion, kind }, encodeMessage(message, obj));
}
