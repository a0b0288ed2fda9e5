/**
 * Dials the runtime's streaming server (the URL CRI Exec/Attach/PortForward returned, e.g.
 * containerd's http://127.0.0.1:<port>/exec/<token>) with an HTTP/1.1 upgrade, and either hands
 * back the upgraded socket after its 101 or the ordinary answer it gave instead.
 */
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';

/** The runtime's answer to an upgrade. */
export type DialResult =
  | { readonly upgraded: true; readonly response: IncomingMessage; readonly socket: Duplex; readonly head: Buffer }
  | { readonly upgraded: false; readonly response: IncomingMessage };

/** Sends method url with headers (which must carry Connection: Upgrade and Upgrade) and waits for the answer. */
export function dialUpgrade(url: string, method: string, headers: OutgoingHttpHeaders, timeoutMs = 30_000): Promise<DialResult> {
  return new Promise((resolve, reject) => {
    const request = url.startsWith('https:') ? httpsRequest : httpRequest;
    // The runtime's streaming server is local and unauthenticated; its URL token is the credential.
    const req = request(url, { method, headers, timeout: timeoutMs, ...(url.startsWith('https:') ? { rejectUnauthorized: false } : {}) });
    req.on('upgrade', (response, socket, head) => resolve({ upgraded: true, response, socket, head }));
    req.on('response', (response) => resolve({ upgraded: false, response }));
    req.on('timeout', () => req.destroy(new Error(`timed out dialing ${url}`)));
    req.on('error', reject);
    req.end();
  });
}

/** The upgrade headers of a SPDY/3.1 request offering the given stream protocols. */
export function spdyUpgradeHeaders(protocols: readonly string[]): OutgoingHttpHeaders {
  return { Connection: 'Upgrade', Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': [...protocols] };
}
