/**
 * Protobuf lists in pieces: the bytes encodeObject gives for a <Kind>List, cut into the envelope's
 * header, the list's own fields (its ListMeta), one piece per item and the envelope's trailer, so
 * a response can be written (and gzipped) a chunk at a time instead of as one concatenated body.
 *
 * runtime.Unknown's `raw` is length-delimited, so every item is encoded before the first byte is
 * known; what this saves is the one body-sized copy, not the encoding.
 */
import { messageForTypeMeta } from './codec.js';
import { jsonToProtobuf } from './encode.js';
import { PROTOBUF_MAGIC, type EnvelopeTypeMeta } from './envelope.js';
import { messageSpec } from './registry.js';
import type { JsonObject, JsonValue } from './types.js';
import { newWriter, WireType, writeTag } from './wire.js';

/** A list as encodeListPieces takes it: the list's apiVersion and kind, its metadata and its items in the list's version. */
export interface ListToEncode extends EnvelopeTypeMeta {
  readonly metadata: JsonValue | undefined;
  /** The items' JSON forms; each is encoded, kept as bytes and let go before the next is read. */
  readonly items: Iterable<JsonObject>;
}

/** The pieces of an encoded list; concatenated they are exactly encodeObject(list). */
export interface ListPieces {
  readonly pieces: readonly Uint8Array[];
  readonly byteLength: number;
}

// gogo always writes Unknown's contentEncoding (3) and contentType (4), both empty.
const envelopeTrailer = Uint8Array.of(0x1a, 0x00, 0x22, 0x00);

/** A length-delimited field's key and length, the bytes written before its content. */
function fieldHeader(number: number, length: number): Uint8Array {
  const w = newWriter();
  writeTag(w, number, WireType.bytes);
  w.uint32(length);
  return w.finish();
}

/**
 * Encodes list as the pieces of its Protobuf body (envelope + list message), byte for byte what
 * encodeObject({kind, apiVersion, metadata, items}) gives. Returns undefined, before reading any
 * item, when the list's message does not end in a repeated message field `items` (the shape of
 * every <Kind>List; the caller then encodes the list whole). Throws ProtobufError as encodeObject
 * does (UnknownKind, InvalidValue). Pure: does not mutate list or its items.
 */
export function encodeListPieces(list: ListToEncode): ListPieces | undefined {
  const listMessage = messageForTypeMeta(list.apiVersion, list.kind);
  const spec = messageSpec(listMessage);
  const itemsField = spec.wireOrder[spec.wireOrder.length - 1];
  if (!itemsField || itemsField.jsonName !== 'items' || !itemsField.repeated || itemsField.map || itemsField.inline || !itemsField.message) return undefined;
  // Fields are written in number order and items is the last, so the list's other fields
  // (metadata) come first, exactly as when the list is encoded whole.
  const own = jsonToProtobuf(listMessage, list.metadata === undefined ? {} : { metadata: list.metadata });
  const pieces: Uint8Array[] = [new Uint8Array(0), new Uint8Array(0), own];
  let rawLength = own.length;
  for (const item of list.items) {
    const body = jsonToProtobuf(itemsField.message, item);
    const header = fieldHeader(itemsField.number, body.length);
    pieces.push(header, body);
    rawLength += header.length + body.length;
  }
  pieces.push(envelopeTrailer);
  const typeMeta = newWriter();
  writeTag(typeMeta, 1, WireType.bytes);
  typeMeta.string(list.apiVersion);
  writeTag(typeMeta, 2, WireType.bytes);
  typeMeta.string(list.kind);
  const typeMetaBytes = typeMeta.finish();
  const head = newWriter();
  writeTag(head, 1, WireType.bytes);
  head.bytes(typeMetaBytes);
  writeTag(head, 2, WireType.bytes);
  head.uint32(rawLength);
  pieces[0] = PROTOBUF_MAGIC;
  pieces[1] = head.finish();
  return { pieces, byteLength: pieces.reduce((n, p) => n + p.length, 0) };
}
