/**
 * etcd's KV messages in protobuf wire form, by hand, for the two calls on the write path (Txn in
 * kube's shapes, Range): no message objects, no Long. Bytes stay Buffers (views of the received
 * message); int64 fields are decimal strings, as the etcd3 client gives them. Field numbers are
 * etcd's api/etcdserverpb/rpc.proto and api/mvccpb/kv.proto.
 */

/** A stored key and its value (mvccpb.KeyValue), shaped as the etcd3 client's IKeyValue. */
export interface WireKeyValue {
  key: Buffer;
  create_revision: string;
  mod_revision: string;
  version: string;
  value: Buffer;
  lease: string;
}

/** The part of etcd's ResponseHeader the store reads. */
export interface WireHeader {
  revision: string;
}

/** A RangeResponse. */
export interface WireRangeResponse {
  header: WireHeader;
  kvs: WireKeyValue[];
  more: boolean;
  count: string;
}

/** A TxnResponse; a response op other than a range is kept as an empty entry. */
export interface WireTxnResponse {
  header: WireHeader;
  succeeded: boolean;
  responses: Array<{ response_range?: WireRangeResponse }>;
}

/** A RangeRequest (etcd's defaults where a field is absent). */
export interface WireRangeRequest {
  readonly key: Buffer;
  readonly rangeEnd?: Buffer;
  readonly limit?: number;
  readonly revision?: bigint;
  readonly sortOrder?: 'Ascend' | 'Descend';
  readonly sortTarget?: 'Key' | 'Version' | 'Create' | 'Mod' | 'Value';
  readonly keysOnly?: boolean;
  readonly countOnly?: boolean;
}

/**
 * kube's write transaction: if mod_revision(key) == modRevision then put value (with lease, '0'
 * for none) or delete key, else range key.
 */
export interface WireTxnRequest {
  readonly key: Buffer;
  readonly modRevision: bigint;
  readonly put?: { readonly value: Buffer; readonly lease: string };
}

const sortOrders = { Ascend: 1, Descend: 2 } as const;
const sortTargets = { Key: 0, Version: 1, Create: 2, Mod: 3, Value: 4 } as const;

function varintSize(n: number | bigint): number {
  if (typeof n === 'number' && n < 0x80) return 1;
  let v = BigInt(n);
  if (v < 0n) v = BigInt.asUintN(64, v);
  let size = 1;
  while (v >= 0x80n) {
    v >>= 7n;
    size++;
  }
  return size;
}

/** Sizes first, then one buffer written front to back. */
class Writer {
  readonly buf: Buffer;
  pos = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }
  varint(n: number | bigint): void {
    if (typeof n === 'number' && n < 0x80) {
      this.buf[this.pos++] = n;
      return;
    }
    let v = BigInt(n);
    if (v < 0n) v = BigInt.asUintN(64, v);
    while (v >= 0x80n) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
  }
  tag(field: number, wireType: number): void {
    this.varint((field << 3) | wireType);
  }
  bytes(field: number, b: Buffer): void {
    this.tag(field, 2);
    this.varint(b.length);
    b.copy(this.buf, this.pos);
    this.pos += b.length;
  }
  number(field: number, n: number | bigint): void {
    this.tag(field, 0);
    this.varint(n);
  }
  header(field: number, length: number): void {
    this.tag(field, 2);
    this.varint(length);
  }
}

/** Size of a length-delimited field of length len (field numbers below 16: one tag byte). */
function delimited(len: number, tagBytes = 1): number {
  return tagBytes + varintSize(len) + len;
}

/** Encodes a RangeRequest. */
export function encodeRangeRequest(r: WireRangeRequest): Buffer {
  let size = delimited(r.key.length);
  if (r.rangeEnd !== undefined) size += delimited(r.rangeEnd.length);
  if (r.limit) size += 1 + varintSize(r.limit);
  if (r.revision) size += 1 + varintSize(r.revision);
  if (r.sortOrder) size += 2;
  if (r.sortTarget && sortTargets[r.sortTarget] !== 0) size += 2;
  if (r.keysOnly) size += 2;
  if (r.countOnly) size += 2;
  const w = new Writer(size);
  w.bytes(1, r.key);
  if (r.rangeEnd !== undefined) w.bytes(2, r.rangeEnd);
  if (r.limit) w.number(3, r.limit);
  if (r.revision) w.number(4, r.revision);
  if (r.sortOrder) w.number(5, sortOrders[r.sortOrder]);
  if (r.sortTarget && sortTargets[r.sortTarget] !== 0) w.number(6, sortTargets[r.sortTarget]);
  if (r.keysOnly) w.number(8, 1);
  if (r.countOnly) w.number(9, 1);
  return w.buf;
}

/**
 * Encodes kube's write TxnRequest. The compare's mod_revision is written even when 0: it is a
 * member of the target_union oneof, whose presence etcd-compatible servers may read.
 */
export function encodeTxnRequest(t: WireTxnRequest): Buffer {
  const keyField = delimited(t.key.length);
  // Compare{result EQUAL (default, omitted), target MOD, key, mod_revision}
  const compare = 2 + keyField + 1 + varintSize(t.modRevision);
  let successInner: number;
  const lease = t.put && t.put.lease !== '0' ? BigInt(t.put.lease) : 0n;
  if (t.put) {
    successInner = keyField + delimited(t.put.value.length) + (lease !== 0n ? 1 + varintSize(lease) : 0);
  } else {
    successInner = keyField;
  }
  const successOp = delimited(successInner);
  const failureOp = delimited(keyField);
  const size = delimited(compare) + delimited(successOp) + delimited(failureOp);
  const w = new Writer(size);
  w.header(1, compare);
  w.number(2, 2);
  w.bytes(3, t.key);
  w.number(6, t.modRevision);
  w.header(2, successOp);
  w.header(t.put ? 2 : 3, successInner);
  w.bytes(1, t.key);
  if (t.put) {
    w.bytes(2, t.put.value);
    if (lease !== 0n) w.number(3, lease);
  }
  w.header(3, failureOp);
  w.header(1, keyField);
  w.bytes(1, t.key);
  if (w.pos !== size) throw new Error(`TxnRequest encoding: wrote ${w.pos} of ${size} bytes`);
  return w.buf;
}

/** Reads one message's fields. Throws on a truncated or malformed message. */
export class Reader {
  pos: number;
  constructor(
    readonly buf: Buffer,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }
  /** A varint as a number, exact up to 2^53; larger ones through int64String. */
  varint(): number {
    const buf = this.buf;
    let result = 0;
    let shift = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new Error('truncated varint');
      const b = buf[this.pos++] as number;
      result += (b & 0x7f) * shift;
      if (b < 0x80) return result;
      shift *= 128;
    }
    throw new Error('malformed varint');
  }
  /** A string field's contents. */
  string(): string {
    const e = this.delimited();
    const s = this.buf.toString('utf8', this.pos, e);
    this.pos = e;
    return s;
  }
  /** An int64 or uint64 varint as a decimal string (two's complement for negative int64). */
  int64String(signed: boolean): string {
    const start = this.pos;
    const n = this.varint();
    if (n <= Number.MAX_SAFE_INTEGER) return String(n);
    let v = 0n;
    for (let i = this.pos - 1; i >= start; i--) v = (v << 7n) | BigInt((this.buf[i] as number) & 0x7f);
    v = BigInt.asUintN(64, v);
    return (signed ? BigInt.asIntN(64, v) : v).toString();
  }
  /** The bounds of a length-delimited field's contents. */
  delimited(): number {
    const len = this.varint();
    const end = this.pos + len;
    if (end > this.end) throw new Error('truncated field');
    return end;
  }
  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.varint();
        return;
      case 1:
        this.pos += 8;
        break;
      case 2:
        this.pos = this.delimited();
        return;
      case 5:
        this.pos += 4;
        break;
      default:
        throw new Error(`unsupported wire type ${wireType}`);
    }
    if (this.pos > this.end) throw new Error('truncated field');
  }
}

/** Decodes the ResponseHeader between r.pos and end (its revision). */
export function decodeHeader(r: Reader, end: number): WireHeader {
  let revision = '0';
  while (r.pos < end) {
    const tag = r.varint();
    if (tag === 0x18) revision = r.int64String(true);
    else r.skip(tag & 7);
  }
  return { revision };
}

/** Decodes the KeyValue between r.pos and end. */
export function decodeKeyValue(r: Reader, end: number): WireKeyValue {
  const buf = r.buf;
  const kv: WireKeyValue = { key: empty, create_revision: '0', mod_revision: '0', version: '0', value: empty, lease: '0' };
  while (r.pos < end) {
    const tag = r.varint();
    switch (tag) {
      case 0x0a: {
        const e = r.delimited();
        kv.key = buf.subarray(r.pos, e);
        r.pos = e;
        break;
      }
      case 0x10:
        kv.create_revision = r.int64String(true);
        break;
      case 0x18:
        kv.mod_revision = r.int64String(true);
        break;
      case 0x20:
        kv.version = r.int64String(true);
        break;
      case 0x2a: {
        const e = r.delimited();
        kv.value = buf.subarray(r.pos, e);
        r.pos = e;
        break;
      }
      case 0x30:
        kv.lease = r.int64String(true);
        break;
      default:
        r.skip(tag & 7);
    }
  }
  return kv;
}

const empty = Buffer.alloc(0);

function decodeRange(r: Reader, end: number): WireRangeResponse {
  const res: WireRangeResponse = { header: { revision: '0' }, kvs: [], more: false, count: '0' };
  while (r.pos < end) {
    const tag = r.varint();
    if (tag === 0x0a) {
      const e = r.delimited();
      res.header = decodeHeader(r, e);
    } else if (tag === 0x12) {
      const e = r.delimited();
      res.kvs.push(decodeKeyValue(r, e));
    } else if (tag === 0x18) res.more = r.varint() !== 0;
    else if (tag === 0x20) res.count = r.int64String(true);
    else r.skip(tag & 7);
  }
  return res;
}

/** Decodes a RangeResponse. */
export function decodeRangeResponse(buf: Buffer): WireRangeResponse {
  return decodeRange(new Reader(buf, 0, buf.length), buf.length);
}

/** Decodes a TxnResponse: the header, succeeded and each response op (ranges decoded). */
export function decodeTxnResponse(buf: Buffer): WireTxnResponse {
  const r = new Reader(buf, 0, buf.length);
  const res: WireTxnResponse = { header: { revision: '0' }, succeeded: false, responses: [] };
  while (r.pos < buf.length) {
    const tag = r.varint();
    if (tag === 0x0a) {
      const e = r.delimited();
      res.header = decodeHeader(r, e);
    } else if (tag === 0x10) res.succeeded = r.varint() !== 0;
    else if (tag === 0x1a) {
      const e = r.delimited();
      const op: { response_range?: WireRangeResponse } = {};
      while (r.pos < e) {
        const t = r.varint();
        if (t === 0x0a) {
          const re = r.delimited();
          op.response_range = decodeRange(r, re);
        } else r.skip(t & 7);
      }
      res.responses.push(op);
    } else r.skip(tag & 7);
  }
  return res;
}
