/**
 * The streaming protocols a client may ask for, and how a request says which: SPDY upgrades carry
 * X-Stream-Protocol-Version (v4.channel.k8s.io ... channel.k8s.io for exec/attach,
 * portforward.k8s.io); WebSocket upgrades name Sec-WebSocket-Protocol subprotocols
 * (v5.channel.k8s.io, v4.channel.k8s.io, channel.k8s.io, base64.channel.k8s.io, ... and
 * SPDY/3.1+portforward.k8s.io for port-forward tunnelled through WebSocket).
 */
import type { IncomingMessage } from 'node:http';

/** kubectl 1.30+'s exec/attach protocol: v4 plus the CLOSE signal (channel 255) for stdin half-close. */
export const channelV5 = 'v5.channel.k8s.io';
/** The SPDY exec/attach protocol the translator speaks to the runtime. */
export const channelV4 = 'v4.channel.k8s.io';
/** kubectl 1.31+'s port-forward: SPDY frames carried in binary WebSocket messages. */
export const portForwardTunnel = 'SPDY/3.1+portforward.k8s.io';
/** SPDY port-forward's protocol. */
export const portForwardV1 = 'portforward.k8s.io';

/** v4/v5 WebSocket channel ids. */
export const Channel = { stdin: 0, stdout: 1, stderr: 2, error: 3, resize: 4, close: 255 } as const;

function connectionUpgrade(req: IncomingMessage): boolean {
  return (req.headers.connection ?? '').toLowerCase().split(',').some((t) => t.trim() === 'upgrade');
}

/** An HTTP/1.1 upgrade to WebSocket. */
export function isWebSocketRequest(req: IncomingMessage): boolean {
  return connectionUpgrade(req) && (req.headers.upgrade ?? '').toLowerCase() === 'websocket';
}

/** Any HTTP/1.1 upgrade request (SPDY or WebSocket). */
export function isUpgradeRequest(req: IncomingMessage): boolean {
  return connectionUpgrade(req) && (req.headers.upgrade ?? '') !== '';
}

/** The WebSocket subprotocols the client offers, in its order. */
export function webSocketProtocols(req: IncomingMessage): string[] {
  const raw = req.headers['sec-websocket-protocol'];
  return (Array.isArray(raw) ? raw.join(',') : (raw ?? '')).split(',').map((s) => s.trim()).filter(Boolean);
}
