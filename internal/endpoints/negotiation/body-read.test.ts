import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect as http2Connect, createServer as createHttp2Server, constants as h2 } from 'node:http2';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { test } from 'node:test';
import { maxPostHandlerReadBytes, readBody } from './body.js';
import { StatusError } from '../../apierrors/status-error.js';

const limit = 64 * 1024;

/** A server answering each request with the length readBody saw, or the 413 it threw. */
async function bodyServer(): Promise<Server> {
  const server = createServer((req, res) => {
    readBody(req, limit, res).then(
      (body) => res.end(`read ${body.length}`),
      (err: unknown) => {
        res.statusCode = err instanceof StatusError ? err.status.code ?? 500 : 500;
        res.end(err instanceof StatusError ? err.status.message : String(err));
      },
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

/** Collects what the server sends until it holds `count` complete answers or 5 s pass. */
function answers(sock: Socket, count: number): Promise<string[]> {
  return new Promise((resolve) => {
    let text = '';
    const done = (): void => {
      clearTimeout(timer);
      sock.off('data', onData);
      resolve(text.split(/(?=HTTP\/1\.1 )/).filter((a) => a.length > 0));
    };
    const onData = (d: Buffer): void => {
      text += d.toString('latin1');
      if ((text.match(/HTTP\/1\.1 /g) ?? []).length >= count && /\r\n\r\n[^]*$/.test(text.slice(text.lastIndexOf('HTTP/1.1 ')))) done();
    };
    const timer = setTimeout(done, 5000);
    sock.on('data', onData);
  });
}

const next = 'GET /after HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n';

const chunked = (payload: Buffer): Buffer[] => [Buffer.from(`${payload.length.toString(16)}\r\n`), payload, Buffer.from('\r\n0\r\n\r\n')];

// Go's net/http reads up to 256 KiB of what a handler left unread to keep the connection; past that
// the answer closes it.
for (const [name, head, body] of [
  ['chunked, ending within 256 KiB past the limit', 'Transfer-Encoding: chunked', chunked],
  ['with a Content-Length below 256 KiB', `Content-Length: ${limit + 1000}`, (payload: Buffer): Buffer[] => [payload.subarray(0, limit + 1000)]],
] as const) {
  test(`a body past the limit sent ${name} is 413 and the keep-alive connection serves the next request`, async () => {
    const server = await bodyServer();
    const sock = connect((server.address() as AddressInfo).port, '127.0.0.1');
    try {
      await once(sock, 'connect');
      const got = answers(sock, 2);
      sock.write(`POST /big HTTP/1.1\r\nHost: x\r\n${head}\r\n\r\n`);
      for (const part of body(Buffer.alloc(4 * limit, 0x61))) sock.write(part);
      sock.write(next);
      const [first, second] = await got;
      assert.match(first ?? '', /^HTTP\/1\.1 413 [^]*Request entity too large: limit is 65536$/);
      assert.doesNotMatch(first ?? '', /Connection: close/i);
      assert.match(second ?? '', /^HTTP\/1\.1 200 [^]*read 0$/, 'the request after the 413 was answered on the same connection');
    } finally {
      sock.destroy();
      server.close();
    }
  });
}

for (const [name, head, size] of [
  ['chunked, going on past 256 KiB', 'Transfer-Encoding: chunked', 64 * 1024 * 1024],
  ['with a Content-Length of 256 KiB or more', `Content-Length: ${maxPostHandlerReadBytes}`, maxPostHandlerReadBytes],
  ['with a Content-Length of 64 MiB', `Content-Length: ${64 * 1024 * 1024}`, 64 * 1024 * 1024],
] as const) {
  test(`a body past the limit sent ${name} is 413 with Connection: close, read by the client before the close`, async () => {
    const server = await bodyServer();
    const sock = connect((server.address() as AddressInfo).port, '127.0.0.1');
    try {
      await once(sock, 'connect');
      let text = '';
      let reset = false;
      sock.on('data', (d: Buffer) => (text += d.toString('latin1')));
      sock.on('error', () => (reset = true));
      const closed = new Promise((resolve) => sock.on('close', resolve));
      sock.write(`POST /big HTTP/1.1\r\nHost: x\r\n${head}\r\n\r\n`);
      // The client goes on sending while the server answers and closes, as an upload does.
      const piece = Buffer.alloc(64 * 1024, 0x61);
      const prefix = head.startsWith('Transfer') ? Buffer.from(`${size.toString(16)}\r\n`) : Buffer.alloc(0);
      sock.write(prefix);
      let sent = 0;
      const pump = (): void => {
        while (sent < size && !sock.destroyed) {
          sent += piece.length;
          if (!sock.write(piece)) {
            sock.once('drain', pump);
            return;
          }
        }
      };
      pump();
      await closed;
      assert.match(text, /^HTTP\/1\.1 413 [^]*Connection: close\r\n[^]*Request entity too large: limit is 65536$/);
      assert.equal(reset && text === '', false, 'the answer arrived before any reset');
    } finally {
      sock.destroy();
      server.close();
    }
  });
}

test('over HTTP/2 a body past the limit is 413, its stream reset with NO_ERROR, and the connection serves the next stream', async () => {
  const server = createHttp2Server();
  const serverResets: Array<number | undefined> = [];
  server.on('request', (req, res) => {
    req.stream.on('close', () => serverResets.push(req.stream.rstCode));
    readBody(req as never, limit, res as never).then(
      (body) => res.end(`read ${body.length}`),
      (err: unknown) => {
        res.statusCode = err instanceof StatusError ? err.status.code ?? 500 : 500;
        res.end(err instanceof StatusError ? (err.status.message ?? '') : String(err));
      },
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const session = http2Connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  try {
    const big = session.request({ ':method': 'POST', ':path': '/big' });
    big.on('error', () => {});
    const piece = Buffer.alloc(64 * 1024, 0x61);
    let stop = false;
    const pump = (): void => {
      while (!stop && !big.destroyed) if (!big.write(piece)) return void big.once('drain', pump);
    };
    pump();
    const [headers] = (await once(big, 'response')) as [Record<string, unknown>];
    let text = '';
    big.on('data', (d: Buffer) => (text += d.toString()));
    await new Promise((resolve) => big.on('end', resolve));
    // node's client waits for its own pending writes after a NO_ERROR reset; stop sending.
    stop = true;
    big.destroy();
    assert.equal(headers[':status'], 413);
    assert.equal(text, 'Request entity too large: limit is 65536');
    for (let i = 0; i < 100 && serverResets.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(serverResets, [h2.NGHTTP2_NO_ERROR], 'the server reset the stream with NO_ERROR once its answer was sent');
    const after = session.request({ ':method': 'POST', ':path': '/after' });
    after.end('{}');
    let afterText = '';
    after.on('data', (d: Buffer) => (afterText += d.toString()));
    await new Promise((resolve) => after.on('close', resolve));
    assert.equal(afterText, 'read 2');
  } finally {
    session.destroy();
    server.close();
  }
});
