/**
 * An upgrade request (WebSocket, SPDY; HTTP/1.1) as an ordinary request: a ServerResponse bound to
 * its socket, so the same handlers serve it. A handler that answers 101 takes the socket over; any
 * other answer ends the connection after it (an upgrade connection is never reused).
 */
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** The response for an 'upgrade' event's request; head (bytes read past the headers) is put back. */
export function upgradeResponse(req: IncomingMessage, socket: Socket, head: Buffer): ServerResponse {
  if (head.length > 0) socket.unshift(head);
  const res = new ServerResponse(req);
  res.assignSocket(socket);
  res.shouldKeepAlive = false;
  res.on('finish', () => socket.end());
  return res;
}
