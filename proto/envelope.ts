/**
 * The Kubernetes Protobuf envelope: the magic bytes "k8s\0" followed by a runtime.Unknown message
 * {typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2, contentEncoding = 3, contentType = 4}, where
 * raw holds the object's own message. This is the body of every
 * `application/vnd.kubernetes.protobuf` request and response.
 */
import { ProtobufError } from './errors.js';
import { guardDecode, newReader, newWriter, WireType, writeTag } from './wire.js';

/** "k8s\0": the first four bytes of every Kubernetes Protobuf body. */
export const PROTOBUF_MAGIC: Uint8Array = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

/** The apiVersion and kind an envelope names. */
export interface EnvelopeTypeMeta {
  readonly apiVersion: string;
  readonly kind: string;
}

/** A decoded envelope: the type it names and the raw message bytes (a view into the input). */
export interface Envelope extends EnvelopeTypeMeta {
  readonly raw: Uint8Array;
  readonly contentEncoding: string;
  readonly contentType: string;
}

/** Whether `buf` starts with the "k8s\0" magic. */
export function hasProtobufMagic(buf: Uint8Array): boolean {
  return buf.length >= 4 && PROTOBUF_MAGIC.every((b, i) => buf[i] === b);
}

function readTypeMeta(bytes: Uint8Array): EnvelopeTypeMeta {
  let apiVersion = '';
  let kind = '';
  const r = newReader(bytes);
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | WireType.bytes)) apiVersion = r.string();
    else if (tag === ((2 << 3) | WireType.bytes)) kind = r.string();
    else if (tag >>> 3 === 0) throw new ProtobufError('Malformed', 'envelope type meta: field number 0');
    else r.skipType(tag & 7);
  }
  return { apiVersion, kind };
}

/**
 * Splits a Protobuf body into its type and raw message bytes. Throws ProtobufError with code
 * MissingMagic, Truncated or Malformed. Does not copy: `raw` is a view into `buf`.
 */
export function decodeEnvelope(buf: Uint8Array): Envelope {
  if (!hasProtobufMagic(buf)) {
    throw new ProtobufError('MissingMagic', 'protobuf body does not start with the k8s\\0 magic bytes');
  }
  return guardDecode(() => {
    let typeMeta: EnvelopeTypeMeta = { apiVersion: '', kind: '' };
    let raw: Uint8Array = new Uint8Array(0);
    let contentEncoding = '';
    let contentType = '';
    const r = newReader(buf.subarray(4));
    while (r.pos < r.len) {
      const tag = r.uint32();
      const number = tag >>> 3;
      const wireType = tag & 7;
      if (number === 0) throw new ProtobufError('Malformed', 'envelope: field number 0');
      if (number >= 1 && number <= 4 && wireType !== WireType.bytes) {
        throw new ProtobufError('Malformed', `envelope: field ${number} has wire type ${wireType}`);
      }
      if (number === 1) typeMeta = readTypeMeta(r.bytes());
      else if (number === 2) raw = r.bytes();
      else if (number === 3) contentEncoding = r.string();
      else if (number === 4) contentType = r.string();
      else r.skipType(wireType);
    }
    return { ...typeMeta, raw, contentEncoding, contentType };
  });
}

/**
 * Wraps a message's raw bytes in the envelope exactly as kube-apiserver writes it: magic, then
 * Unknown with typeMeta (apiVersion, kind), raw, and empty contentEncoding and contentType (which
 * gogo always writes, so every body ends with `1a 00 22 00`).
 */
export function encodeEnvelope(typeMeta: EnvelopeTypeMeta, raw: Uint8Array): Uint8Array {
  const w = newWriter();
  writeTag(w, 1, WireType.bytes);
  w.fork();
  writeTag(w, 1, WireType.bytes);
  w.string(typeMeta.apiVersion);
  writeTag(w, 2, WireType.bytes);
  w.string(typeMeta.kind);
  w.ldelim();
  writeTag(w, 2, WireType.bytes);
  w.bytes(raw);
  writeTag(w, 3, WireType.bytes);
  w.string('');
  writeTag(w, 4, WireType.bytes);
  w.string('');
  const body = w.finish();
  const out = new Uint8Array(4 + body.length);
  out.set(PROTOBUF_MAGIC, 0);
  out.set(body, 4);
  return out;
}
