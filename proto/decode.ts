/**
 * Protobuf wire bytes -> the JSON form kube-apiserver would serve for the same Go object: JSON
 * names, Go declaration order, embedded structs inlined, omitempty applied, map keys sorted (as
 * encoding/json sorts them), bytes as base64, and the special types of special-types.ts.
 */
import { ProtobufError } from './errors.js';
import { messageSpec } from './registry.js';
import { decodeSpecial, type RawFields, type SpecialDecodeHelpers } from './special-types.js';
import type { FieldSpec, JsonObject, JsonValue, MessageSpec, ScalarType } from './types.js';
import { guardDecode, isScalarZero, newReader, readScalar, scalarZero, WireType, wireTypeOf } from './wire.js';
import { setOwnKey } from '../internal/collections/own-key.js';

/** Options of protobufToJson. */
export interface DecodeOptions {
  /** Return int64 values beyond 2^53 as bigint instead of the nearest number (default false). */
  readonly bigints?: boolean;
  /** Decodes a nested `k8s\0` envelope found in a RawExtension (set by codec.ts; without it such bytes are rejected). */
  readonly decodeEnvelope?: (bytes: Uint8Array) => JsonValue;
}

const MAX_DEPTH = 500;

interface Ctx {
  readonly bigints: boolean;
  readonly helpers: SpecialDecodeHelpers;
  depth: number;
}

/** Compares strings by code point, which is the byte order of their UTF-8 (Go's sort order for map keys). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

function readFields(spec: MessageSpec, bytes: Uint8Array, ctx: Ctx): Map<number, unknown[]> {
  const out = new Map<number, unknown[]>();
  const r = newReader(bytes);
  while (r.pos < r.len) {
    const tag = r.uint32();
    const number = tag >>> 3;
    const wireType = tag & 7;
    if (number === 0) throw new ProtobufError('Malformed', `${spec.fullName}: field number 0`);
    const field = spec.byNumber.get(number);
    if (!field) {
      r.skipType(wireType); // unknown fields are dropped, as kube's generated Unmarshal does
      continue;
    }
    let list = out.get(number);
    if (!list) out.set(number, (list = []));
    if (field.map || field.message) {
      if (wireType !== WireType.bytes) throw new ProtobufError('Malformed', `${spec.fullName}.${field.jsonName}: wire type ${wireType} for a message`);
      list.push(r.bytes());
      continue;
    }
    const scalar = field.scalar!;
    const expected = wireTypeOf(scalar);
    if (wireType === WireType.bytes && expected !== WireType.bytes && field.repeated) {
      // Accept packed encoding too, as every protobuf parser must.
      const end = r.uint32() + r.pos;
      while (r.pos < end) list.push(readScalar(r, scalar, ctx.bigints));
      if (r.pos !== end) throw new ProtobufError('Malformed', `${spec.fullName}.${field.jsonName}: packed field overruns its length`);
      continue;
    }
    if (wireType !== expected) throw new ProtobufError('Malformed', `${spec.fullName}.${field.jsonName}: wire type ${wireType}, want ${expected}`);
    list.push(readScalar(r, scalar, ctx.bigints));
  }
  return out;
}

function scalarToJson(value: unknown): JsonValue {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  return value as JsonValue;
}

function concat(chunks: readonly unknown[] | undefined): Uint8Array | undefined {
  if (!chunks || chunks.length === 0) return undefined;
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  return Buffer.concat(chunks as Uint8Array[]); // repeated occurrences of one message field merge
}

function decodeMapEntry(field: FieldSpec, bytes: Uint8Array, ctx: Ctx): [string, JsonValue] {
  let key = '';
  let value: JsonValue | undefined;
  const r = newReader(bytes);
  while (r.pos < r.len) {
    const tag = r.uint32();
    const number = tag >>> 3;
    if (number === 1 && (tag & 7) === WireType.bytes) key = r.string();
    else if (number === 2 && field.message && (tag & 7) === WireType.bytes) value = decodeMessage(messageSpec(field.message), r.bytes(), true, ctx);
    else if (number === 2 && field.scalar && (tag & 7) === wireTypeOf(field.scalar)) value = scalarToJson(readScalar(r, field.scalar, ctx.bigints));
    else r.skipType(tag & 7);
  }
  if (value === undefined) value = field.message ? decodeMessage(messageSpec(field.message), new Uint8Array(0), true, ctx) : scalarToJson(scalarZero(field.scalar as ScalarType));
  return [key, value];
}

function decodeMessage(spec: MessageSpec, bytes: Uint8Array, present: boolean, ctx: Ctx): JsonValue {
  if (++ctx.depth > MAX_DEPTH) throw new ProtobufError('Malformed', `messages nested deeper than ${MAX_DEPTH}`);
  try {
    const fields = readFields(spec, bytes, ctx);
    if (spec.special) return decodeSpecial(spec, fields as RawFields, present, ctx.helpers);
    const out: JsonObject = {};
    for (const field of spec.fields) decodeField(out, field, fields.get(field.number), ctx);
    return out;
  } finally {
    ctx.depth--;
  }
}

function decodeField(out: JsonObject, field: FieldSpec, values: unknown[] | undefined, ctx: Ctx): void {
  const name = field.jsonName;
  if (field.inline) {
    const inner = decodeMessage(messageSpec(field.message!), concat(values) ?? new Uint8Array(0), true, ctx);
    Object.assign(out, inner as JsonObject);
    return;
  }
  if (field.map) {
    if (!values?.length) {
      if (!field.omitEmpty) out[name] = null; // a nil Go map without omitempty
      return;
    }
    const entries = values.map((b) => decodeMapEntry(field, b as Uint8Array, ctx));
    entries.sort((a, b) => compareCodePoints(a[0], b[0]));
    const obj: JsonObject = {};
    for (const [k, v] of entries) setOwnKey(obj, k, v);
    out[name] = obj;
    return;
  }
  if (field.repeated) {
    if (!values?.length) {
      if (!field.omitEmpty) out[name] = null; // a nil Go slice without omitempty
      return;
    }
    out[name] = field.message ? values.map((b) => decodeMessage(messageSpec(field.message!), b as Uint8Array, true, ctx)) : values.map(scalarToJson);
    return;
  }
  if (field.scalar) {
    if (!values?.length) {
      if (field.value && !field.omitEmpty) out[name] = scalarToJson(scalarZero(field.scalar));
      return;
    }
    const value = values[values.length - 1];
    if (!field.pointer && field.omitEmpty && isScalarZero(value)) {
      // A zero value is dropped for known non-pointers, and for strings/bytes whose pointer-ness
      // is unknown (kube's optional strings are nearly all non-pointers); unknown numbers and
      // booleans keep it, since dropping a set `*int32` 0 would change meaning.
      const numberOrBool = field.scalar !== 'string' && field.scalar !== 'bytes';
      if (field.value || !numberOrBool) return;
    }
    out[name] = scalarToJson(value);
    return;
  }
  const spec = messageSpec(field.message!);
  const bytes = concat(values);
  if (bytes === undefined && !field.value) return; // a nil pointer (or unknown) struct
  const value = decodeMessage(spec, bytes ?? new Uint8Array(0), bytes !== undefined, ctx);
  if (spec.special === 'stringList' && field.omitEmpty && value === null) return; // an empty named slice
  out[name] = value;
}

/**
 * Decodes the wire bytes of message `messageFullName` (e.g. `k8s.io.api.core.v1.ConfigMap`) into
 * its JSON form. Pure: does not retain `bytes`. Throws ProtobufError for truncated or malformed
 * input and for unknown messages.
 */
export function protobufToJson(messageFullName: string, bytes: Uint8Array, options: DecodeOptions = {}): JsonValue {
  const spec = messageSpec(messageFullName);
  const ctx: Ctx = {
    bigints: options.bigints ?? false,
    depth: 0,
    helpers: {
      decodeMessage: (fullName, b) => decodeMessage(messageSpec(fullName), b, true, ctx),
      decodeEnvelope: (b) => {
        if (!options.decodeEnvelope) throw new ProtobufError('Malformed', 'nested protobuf envelope where embedded JSON was expected');
        return options.decodeEnvelope(b);
      },
    },
  };
  return guardDecode(() => decodeMessage(spec, bytes, true, ctx));
}
