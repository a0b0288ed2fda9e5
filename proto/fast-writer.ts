/**
 * The compiled encoders' output buffer: one growable Buffer reused across encodes, tags written as
 * precomputed bytes, nested messages written in place behind a one-byte length that is widened
 * (the body moved by a native copy) only when the body reaches 128 bytes. The bytes are exactly
 * protobufjs's BufferWriter's (strings under 40 UTF-16 units use its UTF-8 loop, longer ones
 * Buffer's own encoder, as it does).
 */

import type { NodeBuffer } from './fast-reader.js';

/** Any value the fast path does not write the way the reference walk would; the caller re-runs the reference for its error. */
export class FastPathError extends Error {}

/** A growable protobuf writer; single-threaded, reset per top-level encode. */
export class FastWriter {
  buf: Buffer;
  pos = 0;
  depth = 0;

  constructor(size = 16384) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Makes room for n more bytes. */
  ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(n);
  }

  private grow(n: number): void {
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n + 1024));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** One byte (a one-byte tag or a zero length). */
  byte(b: number): void {
    if (this.pos >= this.buf.length) this.grow(1);
    this.buf[this.pos++] = b;
  }

  /** Two bytes (a two-byte tag). */
  byte2(a: number, b: number): void {
    if (this.pos + 2 > this.buf.length) this.grow(2);
    this.buf[this.pos++] = a;
    this.buf[this.pos++] = b;
  }

  /** An unsigned 32-bit varint. */
  uint32(v: number): void {
    this.ensure(5);
    const buf = this.buf;
    while (v > 127) {
      buf[this.pos++] = (v & 127) | 128;
      v >>>= 7;
    }
    buf[this.pos++] = v;
  }

  /** A 64-bit varint from its two 32-bit halves. */
  varint64(lo: number, hi: number): void {
    this.ensure(10);
    const buf = this.buf;
    while (hi) {
      buf[this.pos++] = (lo & 127) | 128;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    while (lo > 127) {
      buf[this.pos++] = (lo & 127) | 128;
      lo >>>= 7;
    }
    buf[this.pos++] = lo;
  }

  /** An int32 varint: negative values sign-extended to ten bytes, as protobuf requires. */
  int32(v: number): void {
    if (v >= 0) this.uint32(v);
    else this.varint64(v >>> 0, 0xffffffff);
  }

  /** An int64 varint from a safe integer (protobufjs LongBits.fromNumber's two's complement). */
  int64(v: number): void {
    if (v >= 0 && v <= 0xffffffff) {
      this.uint32(v);
      return;
    }
    const negative = v < 0;
    if (negative) v = -v;
    let lo = v >>> 0;
    let hi = ((v - lo) / 4294967296) >>> 0;
    if (negative) {
      hi = ~hi >>> 0;
      lo = ~lo >>> 0;
      if (++lo > 0xffffffff) {
        lo = 0;
        if (++hi > 0xffffffff) hi = 0;
      }
    }
    this.varint64(lo, hi);
  }

  /** An int64 varint from a bigint already checked to be in range. */
  bigInt64(v: bigint): void {
    const u = BigInt.asUintN(64, v);
    this.varint64(Number(u & 0xffffffffn), Number(u >> 32n));
  }

  /** A little-endian double. */
  double(v: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  /** A length-delimited string (length, then UTF-8). */
  string(s: string): void {
    const n = s.length;
    if (n < 40) {
      // At most 117 bytes: the length is one byte, written after the body.
      this.ensure(1 + n * 3);
      const buf = this.buf;
      const at = this.pos;
      let p = at + 1;
      for (let i = 0; i < n; i++) {
        let c1 = s.charCodeAt(i);
        if (c1 < 128) buf[p++] = c1;
        else if (c1 < 2048) {
          buf[p++] = (c1 >> 6) | 192;
          buf[p++] = (c1 & 63) | 128;
        } else {
          const c2 = s.charCodeAt(i + 1);
          if ((c1 & 0xfc00) === 0xd800 && (c2 & 0xfc00) === 0xdc00) {
            c1 = 0x10000 + ((c1 & 0x03ff) << 10) + (c2 & 0x03ff);
            ++i;
            buf[p++] = (c1 >> 18) | 240;
            buf[p++] = ((c1 >> 12) & 63) | 128;
          } else buf[p++] = (c1 >> 12) | 224;
          buf[p++] = ((c1 >> 6) & 63) | 128;
          buf[p++] = (c1 & 63) | 128;
        }
      }
      buf[at] = p - at - 1;
      this.pos = p;
      return;
    }
    const head = varintSize(n);
    this.ensure(head + n * 3);
    const start = this.pos + head;
    const at = this.pos;
    const len = (this.buf as NodeBuffer).utf8Write(s, start);
    this.pos = start + len;
    this.finishLength(at, head, len);
  }

  /** Length-delimited bytes. */
  bytes(b: Uint8Array): void {
    this.uint32(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Opens a nested message: reserves one length byte and returns where it is. */
  begin(): number {
    if (this.pos >= this.buf.length) this.grow(1);
    return this.pos++;
  }

  /** Closes the nested message opened at `at`: writes its length, widening it when the body is 128 bytes or more. */
  end(at: number): void {
    const len = this.pos - at - 1;
    if (len < 128) this.buf[at] = len;
    else this.finishLength(at, 1, len);
  }

  /** Writes length `len` of the body at at + reserved (which ends at pos), moving the body when the length needs more bytes. */
  private finishLength(at: number, reserved: number, len: number): void {
    const size = varintSize(len);
    if (size !== reserved) {
      this.ensure(size - reserved);
      this.buf.copyWithin(at + size, at + reserved, at + reserved + len);
    }
    let p = at;
    const buf = this.buf;
    let v = len;
    while (v > 127) {
      buf[p++] = (v & 127) | 128;
      v >>>= 7;
    }
    buf[p] = v;
    this.pos = at + size + len;
  }

  /** A copy of the bytes written since `from` (the writer's buffer is reused). */
  copyOut(from: number): Buffer {
    const out = Buffer.allocUnsafe(this.pos - from);
    this.buf.copy(out, 0, from, this.pos);
    return out;
  }
}

/** Bytes of the varint of an unsigned 32-bit value. */
export function varintSize(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
}
