import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect, type Socket } from 'node:net';
import { inflateSync, deflateSync, constants } from 'node:zlib';
import { once } from 'node:events';
import { spdy3Dictionary } from './dictionary.js';
import { decodeFrames, encodeFrame, FlagFin, type Frame } from './frames.js';
import { decodeHeaderBlock, encodeHeaderBlock, HeaderCompressor, HeaderDecompressor } from './header-block.js';
import { SpdyConnection } from './connection.js';
import type { SpdyStream } from './stream.js';

function adler32(b: Buffer): number {
  let a = 1;
  let s = 0;
  for (const x of b) {
    a = (a + x) % 65521;
    s = (s + a) % 65521;
  }
  return ((s << 16) | a) >>> 0;
}

async function socketPair(): Promise<[Socket, Socket, () => void]> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  const accepted = once(server, 'connection');
  const client = connect(port, '127.0.0.1');
  const [serverSide] = (await accepted) as [Socket];
  await once(client, 'connect').catch(() => undefined);
  return [client, serverSide, () => server.close()];
}

test('the SPDY/3 dictionary is the 1,423 bytes every peer primes zlib with', () => {
  assert.equal(spdy3Dictionary.length, 1423);
  assert.equal(adler32(spdy3Dictionary).toString(16), 'e3c6a7c2');
});

test('every frame type round-trips, split across reads', () => {
  const frames: Array<Exclude<Frame, { type: 'unknown' }>> = [
    { type: 'data', streamId: 5, flags: FlagFin, data: Buffer.from('hello') },
    { type: 'syn_stream', flags: 0, streamId: 1, associatedStreamId: 0, priority: 3, slot: 0, headerBlock: Buffer.from([1, 2, 3]) },
    { type: 'syn_reply', flags: FlagFin, streamId: 1, headerBlock: Buffer.from([4]) },
    { type: 'headers', flags: 0, streamId: 3, headerBlock: Buffer.from([5, 6]) },
    { type: 'rst_stream', flags: 0, streamId: 7, status: 5 },
    { type: 'settings', flags: 0, entries: [{ flags: 1, id: 7, value: 1 << 20 }] },
    { type: 'ping', flags: 0, id: 9 },
    { type: 'goaway', flags: 0, lastGoodStreamId: 11, status: 0 },
    { type: 'window_update', flags: 0, streamId: 0, delta: 1234 },
  ];
  const wire = Buffer.concat(frames.map((f) => encodeFrame(f)));
  // Control frames carry version 3 and the control bit.
  assert.equal(wire.readUInt16BE(13 + 0), 0x8003);
  const first = decodeFrames(wire.subarray(0, 20));
  assert.equal(first.frames.length, 1);
  const second = decodeFrames(Buffer.concat([first.rest, wire.subarray(20)]));
  assert.equal(second.rest.length, 0);
  assert.deepEqual([...first.frames, ...second.frames], frames);
  assert.throws(() => decodeFrames(Buffer.from([0x80, 0x02, 0, 1, 0, 0, 0, 0])), /unsupported SPDY version 2/);
});

test('header blocks: name/value pairs, NUL-joined values, compressed with the dictionary across blocks', async () => {
  const block = encodeHeaderBlock({ StreamType: ['error'], port: ['80', '8080'] });
  assert.deepEqual(decodeHeaderBlock(block), { streamtype: ['error'], port: ['80', '8080'] });
  assert.throws(() => decodeHeaderBlock(block.subarray(0, block.length - 2)), /truncated/);
  const compressor = new HeaderCompressor();
  const one = await compressor.compress({ streamtype: ['stdout'] });
  const two = await compressor.compress({ streamtype: ['stderr'] });
  // zlib header with FDICT and the dictionary's id, as Go's framer writes and expects.
  assert.equal(one.subarray(0, 6).toString('hex'), '78f9e3c6a7c2');
  // A sync flush ends each block, so a plain inflate with the dictionary reads the first one.
  assert.deepEqual(decodeHeaderBlock(inflateSync(one, { dictionary: spdy3Dictionary, finishFlush: constants.Z_SYNC_FLUSH })), { streamtype: ['stdout'] });
  const decompressor = new HeaderDecompressor();
  assert.deepEqual(await decompressor.decompress(one), { streamtype: ['stdout'] });
  // The second block only decodes with the context of the first (one zlib stream per direction).
  assert.deepEqual(await decompressor.decompress(two), { streamtype: ['stderr'] });
  assert.ok(two.length < one.length);
  // A block compressed by another zlib (the way Go's compress/zlib does, dictionary included) decodes too.
  const foreign = deflateSync(encodeHeaderBlock({ port: ['1'] }), { dictionary: spdy3Dictionary, finishFlush: constants.Z_SYNC_FLUSH });
  assert.deepEqual(await new HeaderDecompressor().decompress(foreign), { port: ['1'] });
  compressor.close();
  decompressor.close();
});

test('streams: SYN_STREAM/SYN_REPLY, data both ways, half-close, ping, reset', async () => {
  const [a, b, done] = await socketPair();
  const client = new SpdyConnection(a, { client: true });
  const server = new SpdyConnection(b, { client: false });
  server.on('stream', (s: SpdyStream) => {
    void s.reply({ ok: ['yes'] }).then(() => {
      if (s.headers.streamtype?.[0] === 'reset') return s.reset();
      const chunks: Buffer[] = [];
      s.on('data', (c: Buffer) => chunks.push(c));
      s.on('end', () => s.end(Buffer.concat([Buffer.from(`${s.headers.streamtype?.[0]}:`), ...chunks])));
    });
  });
  const stream = await client.openStream({ streamtype: ['echo'] });
  assert.equal(stream.id, 1);
  assert.deepEqual(stream.peerHeaders, { ok: ['yes'] });
  stream.end('ping-pong');
  const out: Buffer[] = [];
  for await (const c of stream) out.push(c as Buffer);
  assert.equal(Buffer.concat(out).toString(), 'echo:ping-pong');
  await client.ping();
  const reset = await client.openStream({ streamtype: ['reset'] });
  await once(reset, 'close');
  assert.equal(reset.wasReset, true);
  await client.close();
  done();
});

test('flow control: a sender stops at the peer window and resumes on WINDOW_UPDATE', async () => {
  const [a, b, done] = await socketPair();
  const client = new SpdyConnection(a, { client: true });
  const server = new SpdyConnection(b, { client: false });
  const total = 300 * 1024;
  const received = new Promise<number>((resolve) => {
    server.on('stream', (s: SpdyStream) => {
      void s.reply();
      let n = 0;
      s.on('data', (c: Buffer) => (n += c.length));
      s.on('end', () => resolve(n));
    });
  });
  const stream = await client.openStream({ streamtype: ['bulk'] });
  stream.end(Buffer.alloc(total, 7));
  assert.equal(await received, total);
  await client.close();
  done();

  // A peer that never opens its window: only the initial 64 KiB arrive while the window is enforced.
  const [c, d, done2] = await socketPair();
  const sender = new SpdyConnection(c, { client: true });
  let got = 0;
  let pending = Buffer.alloc(0);
  d.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    const { frames, rest } = decodeFrames(pending);
    pending = Buffer.from(rest);
    for (const f of frames) {
      if (f.type === 'syn_stream') d.write(encodeFrame({ type: 'syn_reply', flags: 0, streamId: f.streamId, headerBlock: Buffer.alloc(0) }));
      if (f.type === 'data') got += f.data.length;
    }
  });
  const s2 = await sender.openStream({ streamtype: ['bulk'] });
  s2.write(Buffer.alloc(200 * 1024, 1));
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(got, 65536);
  d.write(encodeFrame({ type: 'window_update', flags: 0, streamId: s2.id, delta: 1000 }));
  d.write(encodeFrame({ type: 'window_update', flags: 0, streamId: 0, delta: 1000 }));
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(got, 65536 + 1000);
  sender.destroy();
  d.destroy();
  done2();
});
