import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { jsonListPieces, streamChunkBytes, writeStreamedBody, type BodyPiece } from './list-stream.js';

/** A ServerResponse stand-in over a Writable that takes `delayMs` per write (a slow client). */
class FakeResponse extends Writable {
  statusCode = 200;
  headersSent = false;
  readonly headers = new Map<string, unknown>();
  readonly written: Buffer[] = [];
  /** writableLength just before each write call: what was still buffered when more came. */
  readonly bufferedBeforeWrite: number[] = [];

  constructor(private readonly delayMs = 0) {
    super({ highWaterMark: 16 * 1024 });
  }

  setHeader(name: string, value: unknown): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }
  getHeader(name: string): unknown {
    return this.headers.get(name.toLowerCase());
  }
  hasHeader(name: string): boolean {
    return this.headers.has(name.toLowerCase());
  }

  override write(chunk: unknown, ...rest: unknown[]): boolean {
    this.bufferedBeforeWrite.push(this.writableLength);
    return (super.write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.headersSent = true;
    this.written.push(Buffer.from(chunk));
    if (this.delayMs > 0) setTimeout(cb, this.delayMs);
    else cb();
  }

  body(): Buffer {
    return Buffer.concat(this.written);
  }

  finished(): Promise<void> {
    if (this.writableFinished) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.once('finish', resolve);
      this.once('error', reject);
    });
  }
}

function request(headers: Record<string, string> = {}, method = 'GET'): IncomingMessage {
  return { method, headers } as unknown as IncomingMessage;
}

function asResponse(res: FakeResponse): ServerResponse {
  return res as unknown as ServerResponse;
}

function configMap(i: number, size = 1000): Record<string, unknown> {
  return {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { name: `cm-${i}`, namespace: 'default', resourceVersion: String(100 + i), labels: { 'ünïcödé': '✓' } },
    data: { payload: 'x'.repeat(size), emoji: '😀 "quoted" \\ back' },
  };
}

function list(count: number, size = 1000) {
  return {
    kind: 'ConfigMapList',
    apiVersion: 'v1',
    metadata: { resourceVersion: '12345', continue: 'abc', remainingItemCount: 3 },
    items: Array.from({ length: count }, (_, i) => configMap(i, size)),
  };
}

function piecesOf(l: ReturnType<typeof list>, asBytes: boolean): Iterable<BodyPiece> {
  const items = l.items.map((o) => (asBytes ? Buffer.from(JSON.stringify(o)) : JSON.stringify(o)));
  return jsonListPieces({ kind: l.kind, apiVersion: l.apiVersion, metadata: l.metadata }, items);
}

function joined(pieces: Iterable<BodyPiece>): Buffer {
  return Buffer.concat([...pieces].map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
}

describe('jsonListPieces', () => {
  it('joins to exactly JSON.stringify of the list and a newline, from text or from bytes', () => {
    for (const count of [0, 1, 2, 50]) {
      const l = list(count, 10);
      const want = Buffer.from(`${JSON.stringify(l)}\n`);
      assert.ok(joined(piecesOf(l, false)).equals(want), `${count} items as text`);
      assert.ok(joined(piecesOf(l, true)).equals(want), `${count} items as bytes`);
    }
  });

  it('an empty list has "items":[]', () => {
    const text = joined(jsonListPieces({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '7' } }, [])).toString();
    assert.equal(text, '{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[]}\n');
  });

  it('reads items lazily, one per piece', () => {
    let read = 0;
    function* items() {
      for (let i = 0; i < 3; i++) {
        read++;
        yield `{"i":${i}}`;
      }
    }
    const it = jsonListPieces({ kind: 'K', apiVersion: 'v1', metadata: {} }, items());
    it.next(); // the head
    assert.equal(read, 0);
    it.next();
    assert.equal(read, 1);
  });
});

describe('writeStreamedBody', () => {
  it('a body under the gzip threshold is written whole with Content-Length, as writeBody does', async () => {
    const l = list(20);
    const res = new FakeResponse();
    await writeStreamedBody(request({ 'accept-encoding': 'gzip' }), asResponse(res), 200, 'application/json', piecesOf(l, true));
    await res.finished();
    assert.ok(res.body().equals(Buffer.from(`${JSON.stringify(l)}\n`)));
    assert.equal(res.getHeader('content-length'), res.body().length);
    assert.equal(res.getHeader('content-encoding'), undefined);
    assert.equal(res.getHeader('content-type'), 'application/json');
    assert.equal(res.getHeader('cache-control'), 'no-cache, private');
    assert.equal(res.written.length, 1);
  });

  it('a large body streams in chunks of about 64 KiB, byte for byte JSON.stringify', async () => {
    const l = list(1000); // about 1.1 MiB
    const want = Buffer.from(`${JSON.stringify(l)}\n`);
    for (const asBytes of [false, true]) {
      const res = new FakeResponse();
      await writeStreamedBody(request(), asResponse(res), 200, 'application/json', piecesOf(l, asBytes));
      await res.finished();
      assert.ok(res.body().equals(want), `body from ${asBytes ? 'bytes' : 'text'}`);
      assert.equal(res.getHeader('content-length'), undefined);
      assert.equal(res.statusCode, 200);
      // Every write but the last is one whole chunk; the last carries the rest.
      const sizes = res.written.map((b) => b.length);
      for (const n of sizes.slice(0, -1)) assert.equal(n, streamChunkBytes, `chunk of ${n} bytes`);
      assert.ok((sizes.at(-1) ?? 0) <= streamChunkBytes);
      const rest = sizes.slice(1);
      assert.ok(rest.length >= 10, `${rest.length} chunks`);
    }
  });

  it('waits for drain: a slow client never has more than one chunk queued', async () => {
    const l = list(600);
    const res = new FakeResponse(2);
    await writeStreamedBody(request(), asResponse(res), 200, 'application/json', piecesOf(l, true), { chunkBytes: 32 * 1024 });
    await res.finished();
    assert.ok(res.body().equals(Buffer.from(`${JSON.stringify(l)}\n`)));
    assert.ok(res.bufferedBeforeWrite.length > 5);
    // Every write found the buffer below the high-water mark, i.e. the writer waited for 'drain'.
    for (const n of res.bufferedBeforeWrite) assert.ok(n < res.writableHighWaterMark, `wrote with ${n} bytes still queued`);
  });

  it('gzips a large body when accepted; it gunzips to the plain bytes', async () => {
    const l = list(800);
    const res = new FakeResponse(1);
    await writeStreamedBody(request({ 'accept-encoding': 'deflate, gzip;q=0.8' }), asResponse(res), 200, 'application/json', piecesOf(l, false));
    await res.finished();
    assert.equal(res.getHeader('content-encoding'), 'gzip');
    assert.equal(res.getHeader('vary'), 'Accept-Encoding');
    assert.equal(res.getHeader('content-length'), undefined);
    assert.ok(gunzipSync(res.body()).equals(Buffer.from(`${JSON.stringify(l)}\n`)));
  });

  it('adds Accept-Encoding to an existing Vary', async () => {
    const res = new FakeResponse();
    res.setHeader('Vary', 'Accept');
    await writeStreamedBody(request({ 'accept-encoding': 'gzip' }), asResponse(res), 200, 'application/json', piecesOf(list(300), true));
    await res.finished();
    assert.equal(res.getHeader('vary'), 'Accept, Accept-Encoding');
  });

  it('HEAD is answered whole: Content-Length and no body', async () => {
    const l = list(300);
    const res = new FakeResponse();
    await writeStreamedBody(request({}, 'HEAD'), asResponse(res), 200, 'application/json', piecesOf(l, true));
    await res.finished();
    assert.equal(res.getHeader('content-length'), Buffer.byteLength(`${JSON.stringify(l)}\n`));
    assert.equal(res.body().length, 0);
  });

  it('an error before the first byte propagates, and nothing is written', async () => {
    function* failing(): Generator<BodyPiece> {
      yield '{"kind":"ConfigMapList"';
      throw new Error('encode failed');
    }
    const res = new FakeResponse();
    await assert.rejects(writeStreamedBody(request(), asResponse(res), 200, 'application/json', failing()), /encode failed/);
    assert.equal(res.written.length, 0);
    assert.equal(res.headersSent, false);
  });

  it('an error after streaming began destroys the response and resolves', async () => {
    function* failing(): Generator<BodyPiece> {
      for (let i = 0; i < 300; i++) yield Buffer.alloc(1024, 0x61);
      throw new Error('encode failed');
    }
    const res = new FakeResponse();
    await writeStreamedBody(request(), asResponse(res), 200, 'application/json', failing());
    assert.equal(res.destroyed, true);
    assert.ok(res.body().length < 300 * 1024);
  });

  it('stops pulling pieces and destroys the response when the signal aborts', async () => {
    const abort = new AbortController();
    let pulled = 0;
    function* endless(): Generator<BodyPiece> {
      for (;;) {
        pulled++;
        if (pulled === 1000) abort.abort();
        yield Buffer.alloc(1024, 0x61);
      }
    }
    const res = new FakeResponse(1);
    await writeStreamedBody(request(), asResponse(res), 200, 'application/json', endless(), { signal: abort.signal });
    assert.equal(res.destroyed, true);
    assert.ok(pulled < 1100, `pulled ${pulled} pieces`);
  });

  it('does nothing when the response was answered already (a request that timed out)', async () => {
    const res = new FakeResponse();
    res.headersSent = true;
    let pulled = 0;
    function* items(): Generator<BodyPiece> {
      pulled++;
      yield '{}';
    }
    await writeStreamedBody(request(), asResponse(res), 200, 'application/json', items());
    assert.equal(pulled, 0);
    assert.equal(res.written.length, 0);
  });
});
