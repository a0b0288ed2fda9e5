/**
 * What differs between an HTTP/1.1 and an HTTP/2 request, in one place: the handler chain types
 * every request as node:http's IncomingMessage/ServerResponse, and on the secure port an HTTP/2
 * request is node:http2's compatibility pair instead (Http2ServerRequest/Http2ServerResponse),
 * which has the same reading and writing methods but no connection of its own: req.socket is a
 * proxy of the session's TLS socket (getPeerCertificate, remoteAddress and alpnProtocol work), and
 * connection-specific headers (Connection, Keep-Alive, Transfer-Encoding, Upgrade) are forbidden.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';

/** Whether req arrived over HTTP/2. */
export function isHttp2(req: IncomingMessage): boolean {
  return req.httpVersionMajor === 2;
}

/** The host the client asked for: Host on HTTP/1.1, :authority on HTTP/2. */
export function requestHost(req: IncomingMessage): string | undefined {
  const host = req.headers.host;
  if (host !== undefined) return host;
  const authority = req.headers[':authority'];
  return typeof authority === 'string' ? authority : undefined;
}

/**
 * An object that stands for req's connection, the same for every request on it (HTTP/2's
 * req.socket is a new proxy per stream; its session's socket proxy is one per connection).
 */
export function connectionOf(req: IncomingMessage): object {
  if (!isHttp2(req)) return req.socket;
  return (req as unknown as Http2ServerRequest).stream.session?.socket ?? req.socket;
}

/**
 * Closes req's connection once what is in flight on it has been answered (Go's net/http on a
 * handler's `Connection: close`): on HTTP/1.1 the response says `Connection: close`; on HTTP/2 the
 * session sends GOAWAY now, so the client opens no more streams on it, and closes when its open
 * streams (this one included) have ended. Call before the response's headers are written.
 */
export function closeConnectionAfter(req: IncomingMessage, res: ServerResponse): void {
  if (!isHttp2(req)) {
    res.setHeader('Connection', 'close');
    return;
  }
  const session = (req as unknown as Http2ServerRequest).stream.session;
  if (session && !session.closed && !session.destroyed) session.close();
}
