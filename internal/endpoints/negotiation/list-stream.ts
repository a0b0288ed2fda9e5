/**
 * Streaming response bodies: a list is written in chunks of 64 KiB as its items are
 * serialised (or as the cache's bytes for them are copied), never built as one string, and gzipped
 * on the fly when the client accepts it.
 *
 * The rule for when to stream and when to gzip: pieces are gathered until they reach kube's gzip
 * threshold (128 KiB). A body that ends first is written whole by writeBody, exactly as before
 * (Content-Length, never gzipped), and so is every HEAD answer. A body that reaches the threshold
 * is sent with chunked transfer encoding, through gzip when the client accepts it. That is the
 * decision writeBody makes from a whole body's length, made while holding at most 128 KiB of it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants as zlibConstants, createGzip } from 'node:zlib';
import { acceptsGzip, gzipThresholdBytes, setBodyHeaders, setGzipHeaders, writeBody } from './writer.js';
import { Http2ServerResponse } from 'node:http2';

/** A piece of a body: text (written as UTF-8) or bytes. */
export type BodyPiece = string | Uint8Array;

/** How many bytes are gathered into one write once a body streams. */
export const streamChunkBytes = 64 * 1024;

/**
 * kube's defaultGzipContentEncodingLevel (1): much less CPU than the default level for a
 * compression ratio within about 1.1-1.3x of it (kubernetes/kubernetes#112296).
 */
const streamGzipLevel = zlibConstants.Z_BEST_SPEED;

const comma = Buffer.from(',');

/** The list object's fields other than items, in the order they are written. */
export interface ListHead {
  readonly kind: string;
  readonly apiVersion: string;
  readonly metadata: unknown;
}

/**
 * The JSON of {kind, apiVersion, metadata, items} in pieces: the head up to `"items":[`, each item
 * (its JSON text, or bytes that must already be exactly its JSON) with commas between, and `]}`
 * with the newline kube's JSON encoder ends every object with. Concatenated they are byte for
 * byte JSON.stringify of that list plus "\n". items is read lazily, one item per piece, so an
 * item is serialised only when the writer is ready for it.
 */
export function* jsonListPieces(head: ListHead, items: Iterable<BodyPiece>): Generator<BodyPiece, void, undefined> {
  const empty = JSON.stringify({ kind: head.kind, apiVersion: head.apiVersion, metadata: head.metadata, items: [] });
  yield empty.slice(0, -2); // without the closing `]}`
  let first = true;
  for (const item of items) {
    if (first) {
      first = false;
      yield item;
    } else if (typeof item === 'string') {
      yield `,${item}`;
    } else {
      yield comma;
      yield item;
    }
  }
  yield ']}\n';
}

/** Options of writeStreamedBody. */
export interface StreamOptions {
  /**
   * Aborted when the client goes away or the request times out (RequestContext.signal): a body
   * being streamed then stops and its connection is destroyed.
   */
  readonly signal?: AbortSignal;
  /** Bytes per write once streaming (streamChunkBytes unless a test asks otherwise). */
  readonly chunkBytes?: number;
}

/**
 * Copies pieces into buffers of chunkBytes: one copy per byte, no per-chunk arrays. A piece
 * larger than a chunk is passed on as it is (after what was gathered before it).
 */
class ChunkBuilder {
  private buf: Buffer;
  /** The buffers this builder took from the pool (only these go back to it). */
  readonly owned = new WeakSet<Buffer>();
  private len = 0;
  /** Buffers complete and in order, not yet taken. */
  private ready: Buffer[] = [];
  /** Bytes in ready plus the current buffer. */
  size = 0;

  constructor(private readonly chunkBytes: number) {
    this.buf = this.fresh();
  }

  private fresh(): Buffer {
    const b = this.chunkBytes === streamChunkBytes ? chunkPool.pop() : undefined;
    const out = b ?? Buffer.allocUnsafe(this.chunkBytes);
    this.owned.add(out);
    return out;
  }

  add(piece: BodyPiece): void {
    const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
    this.size += bytes.length;
    if (this.len + bytes.length <= this.chunkBytes) {
      this.buf.set(bytes, this.len);
      this.len += bytes.length;
      if (this.len === this.chunkBytes) this.seal();
      return;
    }
    if (bytes.length >= this.chunkBytes) {
      this.seal();
      this.ready.push(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
      return;
    }
    const head = this.chunkBytes - this.len;
    this.buf.set(bytes.subarray(0, head), this.len);
    this.len = this.chunkBytes;
    this.seal();
    this.buf.set(bytes.subarray(head), 0);
    this.len = bytes.length - head;
  }

  /** Whether a whole chunk is ready to write. */
  get hasChunk(): boolean {
    return this.ready.length > 0;
  }

  /** The complete chunks, in order. */
  take(): Buffer[] {
    const out = this.ready;
    this.ready = [];
    this.size = this.len;
    return out;
  }

  /** Everything gathered (complete chunks and the partial one) as buffers, in order. */
  flush(): Buffer[] {
    this.seal();
    return this.take();
  }

  private seal(): void {
    if (this.len === 0) return;
    this.ready.push(this.len === this.chunkBytes ? this.buf : this.buf.subarray(0, this.len));
    this.buf = this.fresh();
    this.len = 0;
  }
}

/**
 * Whole chunks whose bytes have been written (the socket's write callback ran: TLS has encrypted
 * them, gzip has compressed them), ready for the next list: a 10,000-object list then allocates a
 * few chunks rather than about 200, and the GC sees far less external memory come and go.
 */
const chunkPool: Buffer[] = [];
const maxPooledChunks = 64;

function recycle(builder: ChunkBuilder, chunk: Buffer): void {
  if (chunk.length === streamChunkBytes && builder.owned.has(chunk) && chunkPool.length < maxPooledChunks) chunkPool.push(chunk);
}

/** Resolves when stream may take more writes, or has closed or failed (the caller checks which). */
function writable(response: Writable): Promise<void> {
  // An HTTP/2 response keeps no buffer of its own: its stream's says whether to wait.
  const stream = response instanceof Http2ServerResponse ? (response.stream as Writable) : response;
  if (stream.destroyed || !stream.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}

/**
 * Writes a body given as pieces, with status code and content type, following the module's rule:
 * whole through writeBody when it stays under 128 KiB (or for HEAD), else streamed in chunks,
 * gzipped when the client accepts it, waiting for 'drain' whenever the socket's buffer is full.
 *
 * Pieces are pulled only as they are written. An error thrown by the pieces before the first byte
 * is sent propagates (the caller answers with a Status); one thrown after that, the client going
 * away or the request timing out destroys the connection, so the client sees a cut-off body rather
 * than a well-formed short one, and resolves without logging. Does nothing when the response has
 * already been answered (a request that timed out before its list was read).
 */
export async function writeStreamedBody(
  req: IncomingMessage,
  res: ServerResponse,
  code: number,
  contentType: string,
  pieces: Iterable<BodyPiece>,
  opts: StreamOptions = {},
): Promise<void> {
  if (res.headersSent || res.writableEnded) return;
  const it = pieces[Symbol.iterator]();
  const chunkBytes = opts.chunkBytes ?? streamChunkBytes;
  const builder = new ChunkBuilder(chunkBytes);
  for (;;) {
    const next = it.next();
    if (next.done) {
      const all = builder.flush();
      await writeBody(req, res, code, contentType, all.length === 1 ? (all[0] as Buffer) : Buffer.concat(all));
      return;
    }
    builder.add(next.value);
    if (builder.size >= gzipThresholdBytes && req.method !== 'HEAD') break;
  }
  if (res.destroyed || opts.signal?.aborted) return;

  setBodyHeaders(res, code, contentType);
  const gzip = acceptsGzip(req) ? createGzip({ level: streamGzipLevel }) : undefined;
  if (gzip) setGzipHeaders(res);
  const sink: Writable = gzip ?? res;
  // With gzip, pipeline ends res after the last compressed byte and destroys both on failure.
  const piped = gzip ? pipeline(gzip, res).catch(() => undefined) : undefined;
  let cut = false;
  const cutOff = () => {
    cut = true;
    gzip?.destroy();
    if (!res.writableFinished) res.destroy();
  };
  opts.signal?.addEventListener('abort', cutOff, { once: true });
  const stopped = () => cut || res.destroyed || (res.writableEnded && !gzip) || (gzip?.destroyed ?? false);
  try {
    let chunks = builder.take();
    let done = false;
    for (;;) {
      for (const chunk of chunks) {
        if (!stopped() && !sink.write(chunk, (err) => err || recycle(builder, chunk))) await writable(sink);
        if (stopped()) {
          // Gone, timed out, or ended by someone else: a short body must not look complete.
          cutOff();
          return;
        }
      }
      if (done) break;
      while (!builder.hasChunk) {
        const next = it.next();
        if (next.done) {
          done = true;
          break;
        }
        builder.add(next.value);
      }
      chunks = done ? builder.flush() : builder.take();
    }
    sink.end();
    await piped;
  } catch {
    // Headers and part of the body are out: all that is left is to cut the connection.
    cutOff();
  } finally {
    opts.signal?.removeEventListener('abort', cutOff);
  }
}
