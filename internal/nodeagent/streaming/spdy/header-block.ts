/**
 * SPDY/3 name/value header blocks (section 2.6.10) and their compression: a 32-bit pair count,
 * then each name and value as a 32-bit length and bytes (names lowercase, several values of one
 * name joined by NUL), deflated with the SPDY/3 dictionary. Each direction of a connection keeps
 * one zlib stream for its whole life and sync-flushes it after every block, so blocks must be
 * compressed and decompressed in frame order (calls queue in call order).
 */
import { constants, createDeflate, createInflate, type Deflate, type Inflate } from 'node:zlib';
import { spdy3Dictionary } from './dictionary.js';

/** Header names (lowercase) to their values. */
export type SpdyHeaders = Record<string, string[]>;

/** Encodes headers as an uncompressed name/value block (names lowercased). */
export function encodeHeaderBlock(headers: SpdyHeaders): Buffer {
  const parts: Buffer[] = [];
  const entries = Object.entries(headers);
  const count = Buffer.alloc(4);
  count.writeUInt32BE(entries.length);
  parts.push(count);
  for (const [name, values] of entries) {
    for (const s of [Buffer.from(name.toLowerCase(), 'utf8'), Buffer.from(values.join('\0'), 'utf8')]) {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(s.length);
      parts.push(len, s);
    }
  }
  return Buffer.concat(parts);
}

/** Decodes an uncompressed name/value block; throws on a truncated one. */
export function decodeHeaderBlock(block: Buffer): SpdyHeaders {
  const out: SpdyHeaders = {};
  let off = 0;
  const read = (): string => {
    if (off + 4 > block.length) throw new Error('truncated SPDY header block');
    const n = block.readUInt32BE(off);
    off += 4;
    if (off + n > block.length) throw new Error('truncated SPDY header block');
    const s = block.subarray(off, off + n).toString('utf8');
    off += n;
    return s;
  };
  if (block.length < 4) throw new Error('truncated SPDY header block');
  const count = block.readUInt32BE(0);
  off = 4;
  for (let i = 0; i < count; i++) {
    const name = read().toLowerCase();
    const value = read();
    (out[name] ??= []).push(...value.split('\0'));
  }
  return out;
}

/**
 * A zlib stream driven one block at a time: each block is written and sync-flushed, and what the
 * stream emitted up to the flush is that block's output. Calls queue behind each other, so the
 * stream sees blocks in call order whatever the caller awaits.
 */
class BlockPump {
  private sink: Buffer[] = [];
  private tail: Promise<unknown> = Promise.resolve();
  private failure: Error | undefined;

  constructor(private readonly stream: Deflate | Inflate) {
    // Flowing mode: output never waits for a reader, so a large block cannot stall the flush.
    stream.on('data', (c: Buffer) => this.sink.push(c));
    stream.on('error', (err: Error) => (this.failure = err));
  }

  run(input: Buffer): Promise<Buffer> {
    const next = this.tail.then(
      () =>
        new Promise<Buffer>((resolve, reject) => {
          if (this.failure) return reject(this.failure);
          this.sink = [];
          if (input.length > 0) this.stream.write(input);
          this.stream.flush(constants.Z_SYNC_FLUSH, () => {
            if (this.failure) return reject(this.failure);
            resolve(Buffer.concat(this.sink));
          });
        }),
    );
    this.tail = next.catch(() => undefined);
    return next;
  }

  close(): void {
    this.stream.destroy();
  }
}

/** One direction's header compressor (a connection's outgoing blocks, in order). */
export class HeaderCompressor {
  private readonly pump = new BlockPump(createDeflate({ dictionary: spdy3Dictionary, level: constants.Z_BEST_COMPRESSION }));

  /** Compresses headers; blocks come out in call order. */
  compress(headers: SpdyHeaders): Promise<Buffer> {
    return this.pump.run(encodeHeaderBlock(headers));
  }

  close(): void {
    this.pump.close();
  }
}

/** One direction's header decompressor (a connection's incoming blocks, in order). */
export class HeaderDecompressor {
  private readonly pump = new BlockPump(createInflate({ dictionary: spdy3Dictionary }));

  /** Decompresses one frame's header block (in frame order); an empty block decodes to {}. */
  async decompress(block: Buffer): Promise<SpdyHeaders> {
    if (block.length === 0) return {};
    return decodeHeaderBlock(await this.pump.run(block));
  }

  close(): void {
    this.pump.close();
  }
}
