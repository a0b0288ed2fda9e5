/**
 * A minimal protobuf wire-format writer for the gnostic encoder: tags, varints, fixed64 doubles
 * and length-delimited fields. Proto3 rules apply to scalars (zero values are not written);
 * nested messages are written whenever the caller passes one, even when empty, as Go's
 * proto.Marshal does for a set message field.
 */

const enum WireType {
  Varint = 0,
  Fixed64 = 1,
  LengthDelimited = 2,
}

/** An embedded child as it was when appended: its writer and how many of its parts were there. */
interface ChildPart {
  readonly child: ProtoWriter;
  readonly count: number;
  readonly size: number;
}

/**
 * Accumulates one message's encoded fields. Children are built in their own writer and appended
 * by reference (a tree, so a deep document is not re-listed at every level), and nothing is copied
 * until finish() writes the tree into one buffer. Callers write fields in ascending field number
 * order; the writer does not reorder.
 */
export class ProtoWriter {
  private readonly parts: (Uint8Array | ChildPart)[] = [];
  private size = 0;

  /** The encoded length in bytes so far. */
  get length(): number {
    return this.size;
  }

  /** A proto3 string field; "" and non-strings are skipped. */
  string(field: number, value: string | undefined): this {
    if (value === undefined || value === '') return this;
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  /** Each element of a repeated string field, in order (empty strings included, as Go writes them). */
  strings(field: number, values: readonly string[]): this {
    for (const v of values) this.bytes(field, Buffer.from(v, 'utf8'));
    return this;
  }

  /** A proto3 bool field; only true is written. */
  bool(field: number, value: boolean | undefined): this {
    if (value !== true) return this;
    this.tag(field, WireType.Varint);
    return this.push(Uint8Array.of(1));
  }

  /** A bool member of a oneof: set members are written even at false, as proto3 requires. */
  oneofBool(field: number, value: boolean): this {
    this.tag(field, WireType.Varint);
    return this.push(Uint8Array.of(value ? 1 : 0));
  }

  /** A proto3 int64 field (varint, two's complement for negatives); 0 is skipped. */
  int64(field: number, value: number | undefined): this {
    if (value === undefined || value === 0 || !Number.isFinite(value)) return this;
    this.tag(field, WireType.Varint);
    const n = Math.trunc(value);
    return this.push(n > 0 && n <= Number.MAX_SAFE_INTEGER ? encodeVarint(n) : encodeVarint64(BigInt.asUintN(64, BigInt(n))));
  }

  /** A proto3 double field (fixed64, little endian); +0 is skipped. */
  double(field: number, value: number | undefined): this {
    if (value === undefined || Object.is(value, 0)) return this;
    this.tag(field, WireType.Fixed64);
    const b = Buffer.alloc(8);
    b.writeDoubleLE(value);
    return this.push(b);
  }

  /** A length-delimited field holding raw bytes. */
  bytes(field: number, value: Uint8Array): this {
    this.tag(field, WireType.LengthDelimited);
    this.push(encodeVarint(value.length));
    return this.push(value);
  }

  /** An embedded message field; written even when child is empty. What child gets afterwards is not included. */
  message(field: number, child: ProtoWriter): this {
    this.tag(field, WireType.LengthDelimited);
    this.push(encodeVarint(child.size));
    this.parts.push({ child, count: child.parts.length, size: child.size });
    this.size += child.size;
    return this;
  }

  /** The encoded message as one buffer. The writer may still be appended to afterwards. */
  finish(): Buffer {
    const out = Buffer.allocUnsafe(this.size);
    const end = this.writeInto(out, 0, this.parts.length);
    if (end !== this.size) throw new Error(`protobuf writer wrote ${end} of ${this.size} bytes`);
    return out;
  }

  /** Copies the first count parts (children recursively) into out at offset; returns the end offset. */
  private writeInto(out: Buffer, offset: number, count: number): number {
    let at = offset;
    for (let i = 0; i < count; i++) {
      const p = this.parts[i] as Uint8Array | ChildPart;
      if (p instanceof Uint8Array) {
        out.set(p, at);
        at += p.length;
      } else {
        at = p.child.writeInto(out, at, p.count);
      }
    }
    return at;
  }

  private tag(field: number, type: WireType): void {
    this.push(encodeVarint(field * 8 + type));
  }

  private push(part: Uint8Array): this {
    this.parts.push(part);
    this.size += part.length;
    return this;
  }
}

/** The base-128 varint encoding of a non-negative safe integer. */
function encodeVarint(value: number): Uint8Array {
  if (value < 0x80) return Uint8Array.of(value);
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}

/** The base-128 varint encoding of an unsigned 64-bit value (negative int64s arrive as 2^64 + n). */
function encodeVarint64(value: bigint): Uint8Array {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}
