import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { test } from 'node:test';
import { readBody } from './body.js';
import { StatusError } from '../../apierrors/status-error.js';

const limit = 64 * 1024;

/** A server answering each request with the length readBody saw, or the 413 it threw. */
async function bodyServer(): Promise<Server> {
  const server = createServer((req, res) => {
    readBody(req, limit).then(
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

for (const [name, head, body] of [
  ['chunked', 'Transfer-Encoding: chunked', (payload: Buffer): Buffer[] => [Buffer.from(`${payload.length.toString(16)}\r\n`), payload, Buffer.from('\r\n0\r\n\r\n')]],
  ['with a Content-Length', `Content-Length: ${4 * limit}`, (payload: Buffer): Buffer[] => [payload]],
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
      assert.match(second ?? '', /^HTTP\/1\.1 200 [^]*read 0$/, 'the request after the 413 was answered on the same connection');
    } finally {
      sock.destroy();
      server.close();
    }
  });
}
