/**
 * Protobuf wire-format primitives for the codec: protobufjs's Reader and Writer (varints, lengths,
 * fixed-width numbers), plus the rules kube's gogo-protobuf code follows for scalars, and the
 * int64 handling that keeps values beyond 2^53 exact.
 */
import protobuf from 'protobufjs/minimal.js';
import { ProtobufError } from './errors.js';
import type { ScalarType } from './types.js';

/** A protobufjs reader over one message's bytes. */
export type Reader = protobuf.Reader;
/** A protobufjs writer; nested messages use fork()/ldelim(). */
export type Writer = protobuf.Writer;

/** Wire types of the Protobuf encoding. */
export const WireType = { varint: 0, fixed64: 1, bytes: 2, startGroup: 3, endGroup: 4, fixed32: 5 } as const;

/** A reader over `bytes`; the caller must not mutate the bytes while reading. */
export function newReader(bytes: Uint8Array): Reader {
  return protobuf.Reader.create(bytes);
}

/** A fresh writer. */
export function newWriter(): Writer {
  return protobuf.Writer.create();
}

/** The wire type a scalar is written with (repeated scalars are written unpacked, one tag each, as gogo does for proto2). */
export function wireTypeOf(type: ScalarType): number {
  switch (type) {
    case 'string':
    case 'bytes':
      return WireType.bytes;
    case 'double':
    case 'fixed64':
    case 'sfixed64':
      return WireType.fixed64;
    case 'float':
    case 'fixed32':
    case 'sfixed32':
      return WireType.fixed32;
    default:
      return WireType.varint;
  }
}

/** Writes a field key (number and wire type). */
export function writeTag(w: Writer, number: number, wireType: number): void {
  w.uint32(((number << 3) | wireType) >>> 0);
}

type LongLike = { toString(): string; toNumber(): number; high: number; low: number };

function longToJson(v: LongLike | number, bigints: boolean): number | bigint {
  if (typeof v === 'number') return v;
  const n = v.toNumber();
  if (Number.isSafeInteger(n)) return n;
  return bigints ? BigInt(v.toString()) : n;
}

/**
 * Reads one scalar value; int64 beyond 2^53 come back as bigint when `bigints` is set, else as the
 * nearest number. bytes come back as a Uint8Array view into the input.
 */
export function readScalar(r: Reader, type: ScalarType, bigints: boolean): string | number | bigint | boolean | Uint8Array {
  switch (type) {
    case 'string':
      return r.string();
    case 'bytes':
      return r.bytes();
    case 'bool':
      return r.bool();
    case 'int32':
      return r.int32();
    case 'uint32':
      return r.uint32();
    case 'sint32':
      return r.sint32();
    case 'fixed32':
      return r.fixed32();
    case 'sfixed32':
      return r.sfixed32();
    case 'float':
      return r.float();
    case 'double':
      return r.double();
    case 'int64':
      return longToJson(r.int64() as unknown as LongLike, bigints);
    case 'uint64':
      return longToJson(r.uint64() as unknown as LongLike, bigints);
    case 'sint64':
      return longToJson(r.sint64() as unknown as LongLike, bigints);
    case 'fixed64':
      return longToJson(r.fixed64() as unknown as LongLike, bigints);
    case 'sfixed64':
      return longToJson(r.sfixed64() as unknown as LongLike, bigints);
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function toInt64(value: unknown, unsigned: boolean, path: string): string | number {
  let big: bigint;
  if (typeof value === 'bigint') big = value;
  else if (typeof value === 'number' && Number.isInteger(value)) {
    if (Number.isSafeInteger(value)) return value;
    big = BigInt(value);
  } else if (typeof value === 'string' && /^-?\d+$/.test(value)) big = BigInt(value);
  else throw new ProtobufError('InvalidValue', `expected an integer, got ${JSON.stringify(String(value))}`, path);
  if (unsigned ? big < 0n || big >= 2n ** 64n : big < INT64_MIN || big > INT64_MAX) {
    throw new ProtobufError('InvalidValue', `integer ${big} out of range`, path);
  }
  return big.toString();
}

function toInt32(value: unknown, min: number, max: number, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new ProtobufError('InvalidValue', `expected a 32-bit integer, got ${JSON.stringify(value)}`, path);
  }
  return value;
}

/** Writes a scalar value (without its tag). Throws ProtobufError('InvalidValue') when the JSON value does not fit the type. */
export function writeScalar(w: Writer, type: ScalarType, value: unknown, path: string): void {
  switch (type) {
    case 'string':
      if (typeof value !== 'string') throw new ProtobufError('InvalidValue', `expected a string, got ${typeof value}`, path);
      w.string(value);
      return;
    case 'bytes':
      if (!(value instanceof Uint8Array)) throw new ProtobufError('InvalidValue', 'expected bytes', path);
      w.bytes(value);
      return;
    case 'bool':
      if (typeof value !== 'boolean') throw new ProtobufError('InvalidValue', `expected a boolean, got ${typeof value}`, path);
      w.bool(value);
      return;
    case 'int32':
      w.int32(toInt32(value, -(2 ** 31), 2 ** 31 - 1, path));
      return;
    case 'sint32':
      w.sint32(toInt32(value, -(2 ** 31), 2 ** 31 - 1, path));
      return;
    case 'sfixed32':
      w.sfixed32(toInt32(value, -(2 ** 31), 2 ** 31 - 1, path));
      return;
    case 'uint32':
      w.uint32(toInt32(value, 0, 2 ** 32 - 1, path));
      return;
    case 'fixed32':
      w.fixed32(toInt32(value, 0, 2 ** 32 - 1, path));
      return;
    case 'float':
    case 'double':
      if (typeof value !== 'number') throw new ProtobufError('InvalidValue', `expected a number, got ${typeof value}`, path);
      if (type === 'float') w.float(value);
      else w.double(value);
      return;
    case 'int64':
      w.int64(toInt64(value, false, path));
      return;
    case 'sint64':
      w.sint64(toInt64(value, false, path));
      return;
    case 'sfixed64':
      w.sfixed64(toInt64(value, false, path));
      return;
    case 'uint64':
      w.uint64(toInt64(value, true, path));
      return;
    case 'fixed64':
      w.fixed64(toInt64(value, true, path));
      return;
  }
}

/** The zero value of a scalar in its JSON form (what a Go non-pointer field holds when unset). */
export function scalarZero(type: ScalarType): string | number | boolean | Uint8Array {
  switch (type) {
    case 'string':
      return '';
    case 'bytes':
      return new Uint8Array(0);
    case 'bool':
      return false;
    default:
      return 0;
  }
}

/** Whether a JSON-form scalar is its type's zero value (what Go's omitempty drops). */
export function isScalarZero(value: unknown): boolean {
  return value === '' || value === 0 || value === 0n || value === false || (value instanceof Uint8Array && value.length === 0);
}

/**
 * Runs a decoding step, turning protobufjs's RangeError ("index out of range") into a typed
 * Truncated error and its wire-type errors into Malformed.
 */
export function guardDecode<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ProtobufError) throw err;
    if (err instanceof RangeError) throw new ProtobufError('Truncated', `truncated protobuf data: ${err.message}`);
    throw new ProtobufError('Malformed', `malformed protobuf data: ${err instanceof Error ? err.message : String(err)}`);
  }
}
