/**
 * The compiled decoders' reader: a Buffer, a position and each message's end passed explicitly,
 * so nested messages are read in place (no sub-reader or slice per field). Anything unusual
 * (overlong varints, groups, bad wire types, truncation) throws FastPathError and the caller
 * re-decodes with the reference walk, which gives the exact result or typed error.
 */
import protobuf from 'protobufjs/minimal.js';
import { FastPathError } from './fast-writer.js';
import type { JsonValue } from './types.js';

/** Buffer's own UTF-8 methods (what protobufjs calls too), without toString's argument handling. */
export type NodeBuffer = Buffer & { utf8Slice(start: number, end: number): string; utf8Write(text: string, offset: number): number };

/** Decoding state shared by the compiled decoders of one top-level decode. */
export class FastReader {
  pos = 0;
  depth = 0;

  constructor(
    readonly buf: Buffer,
    /** Whether the caller's input was a Buffer (protobufjs reads strings of plain Uint8Arrays with its own UTF-8 decoder). */
    readonly nodeBuffer: boolean,
    readonly bigints: boolean,
    readonly decodeEnvelope: (bytes: Uint8Array) => JsonValue,
  ) {}
}

const fail = (what: string): never => {
  throw new FastPathError(what);
};

/** Reads an unsigned 32-bit varint (a longer one is read as protobufjs does: low 32 bits, five more bytes skipped). */
export function readUint32(r: FastReader, end: number): number {
  const buf = r.buf;
  let pos = r.pos;
  if (pos + 5 > end) return readUint32Slow(r, end);
  let b = buf[pos++]!;
  let v = b & 127;
  if (b >= 128) {
    b = buf[pos++]!;
    v |= (b & 127) << 7;
    if (b >= 128) {
      b = buf[pos++]!;
      v |= (b & 127) << 14;
      if (b >= 128) {
        b = buf[pos++]!;
        v |= (b & 127) << 21;
        if (b >= 128) {
          b = buf[pos++]!;
          v = (v | ((b & 15) << 28)) >>> 0;
          if (b >= 128) {
            pos += 5;
            if (pos > end) fail('truncated varint');
          }
        }
      }
    }
  }
  r.pos = pos;
  return v;
}

function readUint32Slow(r: FastReader, end: number): number {
  const buf = r.buf;
  let v = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (r.pos >= end) fail('truncated varint');
    const b = buf[r.pos++]!;
    v = shift < 28 ? v | ((b & 127) << shift) : (v | ((b & 15) << 28)) >>> 0;
    if (b < 128) return v >>> 0;
  }
  return fail('overlong varint');
}

/** Reads an int64 varint as a number, or a bigint beyond 2^53 when the reader asks for bigints (as wire.ts's longToJson). */
export function readInt64(r: FastReader, end: number): number | bigint {
  const buf = r.buf;
  let lo = 0;
  let hi = 0;
  let i = 0;
  let b: number;
  for (; i < 4; i++) {
    if (r.pos >= end) fail('truncated varint');
    b = buf[r.pos++]!;
    lo = (lo | ((b & 127) << (i * 7))) >>> 0;
    if (b < 128) return lo;
  }
  if (r.pos >= end) fail('truncated varint');
  b = buf[r.pos++]!;
  lo = (lo | ((b & 127) << 28)) >>> 0;
  hi = (b & 127) >> 4;
  if (b >= 128) {
    for (i = 0; i < 5; i++) {
      if (r.pos >= end) fail('truncated varint');
      b = buf[r.pos++]!;
      hi = (hi | ((b & 127) << (i * 7 + 3))) >>> 0;
      if (b < 128) break;
    }
    if (b! >= 128) fail('overlong varint');
  }
  const n = (hi | 0) * 4294967296 + lo;
  if (Number.isSafeInteger(n) || !r.bigints) return n;
  return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
}

/** Reads a length prefix and returns the end of the bytes it delimits (checked against `end`). */
export function readLengthEnd(r: FastReader, end: number): number {
  const len = readUint32(r, end);
  const e = r.pos + len;
  if (e > end) fail('truncated field');
  return e;
}

/** Reads a string's bytes [r.pos, e) and moves past them. */
export function readString(r: FastReader, e: number): string {
  const buf = r.buf;
  const s = r.pos;
  r.pos = e;
  if (!r.nodeBuffer) return protobuf.util.utf8.read(buf.subarray(s, e), 0, e - s); // its decoder reads past `end` on broken UTF-8
  return (buf as NodeBuffer).utf8Slice(s, e);
}

/** Skips one field's value of wire type wt (groups and unknown wire types go to the reference walk). */
export function skipField(r: FastReader, wt: number, end: number): void {
  switch (wt) {
    case 0:
      do {
        if (r.pos >= end) fail('truncated varint');
      } while (r.buf[r.pos++]! & 128);
      return;
    case 1:
      r.pos += 8;
      break;
    case 2:
      r.pos = readLengthEnd(r, end);
      return;
    case 5:
      r.pos += 4;
      break;
    default:
      fail(`wire type ${wt}`);
  }
  if (r.pos > end) fail('truncated field');
}

/** Reads a little-endian double. */
export function readDouble(r: FastReader, end: number): number {
  if (r.pos + 8 > end) fail('truncated double');
  const v = r.buf.readDoubleLE(r.pos);
  r.pos += 8;
  return v;
}

/** Throws FastPathError: the compiled code met something only the reference walk handles. */
export function fastPathFail(what: string): never {
  return fail(what);
}
