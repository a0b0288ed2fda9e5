/**
 * Joins a client's upgrade request to the runtime's streaming server byte for byte (kubelet's
 * UpgradeAwareHandler towards the CRI URL): the request goes to the runtime with its Upgrade,
 * Sec-WebSocket-* and X-Stream-Protocol-Version headers, the runtime's 101 is written to the
 * client as it came and the two connections carry each other's bytes until either closes. An
 * answer other than 101 is passed on as an ordinary response.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { dialUpgrade } from './runtime-dial.js';

/** Headers that never travel to the runtime (they are the caller's own credentials or hop-by-hop). */
const dropped = new Set(['host', 'authorization', 'proxy-authorization', 'content-length', 'transfer-encoding', 'keep-alive']);

/** The client's headers as the runtime should see them. */
export function forwardedHeaders(req: IncomingMessage): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || dropped.has(name) || name.startsWith('impersonate-')) continue;
    out[name] = value;
  }
  return out;
}

/** Writes a 101 (or any head) to a raw socket as the upstream sent it. */
export function writeRawHead(socket: Duplex, response: IncomingMessage): void {
  const lines = [`HTTP/1.1 ${response.statusCode ?? 101} ${response.statusMessage ?? 'Switching Protocols'}`];
  for (let i = 0; i < response.rawHeaders.length; i += 2) lines.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`);
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
}

/** Pipes two sockets into each other; resolves when both are gone. */
export function joinSockets(a: Duplex, b: Duplex): Promise<void> {
  return new Promise((resolve) => {
    a.pipe(b);
    b.pipe(a);
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      a.destroy();
      b.destroy();
      resolve();
    };
    for (const s of [a, b]) {
      s.on('close', finish);
      s.on('error', finish);
    }
  });
}

/** Proxies the upgrade to url; resolves when the exchange is over. */
export async function proxyUpgradeRaw(req: IncomingMessage, res: ServerResponse, url: string): Promise<void> {
  const answer = await dialUpgrade(url, req.method ?? 'POST', forwardedHeaders(req));
  if (!answer.upgraded) {
    const headers: OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(answer.response.headers)) if (v !== undefined && k !== 'connection' && k !== 'transfer-encoding') headers[k] = v;
    res.writeHead(answer.response.statusCode ?? 502, headers);
    answer.response.pipe(res);
    await new Promise<void>((resolve) => res.on('close', () => resolve()));
    return;
  }
  const client = req.socket;
  // The response object must never write on a connection that now carries another protocol.
  res.detachSocket(client);
  writeRawHead(client, answer.response);
  if (answer.head.length > 0) client.write(answer.head);
  await joinSockets(client, answer.socket);
  res.emit('close');
}
