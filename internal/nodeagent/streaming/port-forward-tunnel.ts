/**
 * Port-forward for kubectl 1.31+ (kubelet's TunnelingHandler): the client's WebSocket, subprotocol
 * SPDY/3.1+portforward.k8s.io, carries a SPDY session in its binary messages. The runtime's
 * port-forward URL is dialled with a SPDY upgrade (portforward.k8s.io) and the message payloads
 * and the upgraded connection's bytes are copied into each other unchanged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { portForwardTunnel, portForwardV1 } from './protocols.js';
import { dialUpgrade, spdyUpgradeHeaders } from './runtime-dial.js';

// "SPDY/3.1+portforward.k8s.io" is not an RFC 6455 token ('/' is a separator), so ws would refuse
// the handshake: the offer is taken off the request here and the answer written back by hand.
const tunnelled = new WeakSet<IncomingMessage>();
const server = new WebSocketServer({ noServer: true, perMessageDeflate: false });
server.on('headers', (headers: string[], req: IncomingMessage) => {
  if (tunnelled.has(req)) headers.push(`Sec-WebSocket-Protocol: ${portForwardTunnel}`);
});

/** Serves a tunnelled port-forward against the runtime's URL; resolves when either side closes. */
export async function tunnelPortForward(req: IncomingMessage, res: ServerResponse, url: string): Promise<void> {
  const answer = await dialUpgrade(url, 'POST', spdyUpgradeHeaders([portForwardV1]));
  if (!answer.upgraded) {
    res.writeHead(answer.response.statusCode ?? 502, { 'Content-Type': 'text/plain; charset=utf-8' });
    answer.response.pipe(res);
    await new Promise<void>((resolve) => res.on('close', () => resolve()));
    return;
  }
  const upstream = answer.socket;
  const socket = req.socket;
  res.detachSocket(socket);
  delete req.headers['sec-websocket-protocol'];
  tunnelled.add(req);
  const ws = await new Promise<WebSocket>((resolve) => server.handleUpgrade(req, socket, Buffer.alloc(0), resolve));
  if (answer.head.length > 0) ws.send(answer.head, { binary: true });
  await new Promise<void>((resolve) => {
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      upstream.destroy();
      if (ws.readyState === ws.OPEN) ws.close(1000);
      resolve();
    };
    upstream.on('data', (c: Buffer) => {
      if (ws.readyState === ws.OPEN) ws.send(c, { binary: true });
    });
    ws.on('message', (data: RawData) => {
      upstream.write(Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data));
    });
    upstream.on('close', finish);
    upstream.on('error', finish);
    ws.on('close', finish);
    ws.on('error', finish);
  });
  res.emit('close');
}
