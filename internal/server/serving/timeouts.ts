/**
 * The limits kube-apiserver's secure serving puts on a connection before and between requests
 * (k8s.io/apiserver's SecureServingInfo.Serve: http.Server{ReadHeaderTimeout: 32s, IdleTimeout:
 * 90s, MaxHeaderBytes: 1 MiB}), in node's terms, so that connections which send nothing, or a
 * request header a byte at a time, are closed and cost bounded memory, as Go closes them.
 */
import type { ServerHttp2Session } from 'node:http2';

/** ReadHeaderTimeout: a request's header must arrive within this ("just shy of" the 34 s request timeout bound). */
export const readHeaderTimeoutMs = 32_000;
/** IdleTimeout: how long a connection may wait between requests (HTTP/1.1 keep-alive and HTTP/2 alike). */
export const idleTimeoutMs = 90_000;
/** Go's TLS handshake deadline: the smallest of ReadHeaderTimeout, ReadTimeout and WriteTimeout set. */
export const tlsHandshakeTimeoutMs = readHeaderTimeoutMs;
/** MaxHeaderBytes, plus the 4 KiB Go's HTTP/1.1 reader allows on top before it answers 431. */
export const http1MaxHeaderBytes = (1 << 20) + 4096;
/** SETTINGS_MAX_HEADER_LIST_SIZE as Go's HTTP/2 server derives it from MaxHeaderBytes (32 bytes for each of 10 fields on top). */
export const http2MaxHeaderListBytes = (1 << 20) + 10 * 32;
/** Header fields node's HTTP/2 accepts in one request: Go counts none, so as many as the byte limit allows. */
export const http2MaxHeaderPairs = 1 << 16;
/** Go's HTTP/2 server waits this long for the client's connection preface before it closes. */
export const http2PrefaceTimeoutMs = 10_000;
/**
 * How often node looks for requests whose header is overdue. Go arms a deadline per read; node
 * sweeps its connections on an interval (30 s by default, which would let a header take up to
 * 62 s), so a short sweep keeps the cut close to ReadHeaderTimeout.
 */
export const headerSweepIntervalMs = 1_000;

/** The HTTP/1.1 timeout fields node's connection handling reads from its server (set before listen). */
interface Http1Fields {
  headersTimeout: number;
  keepAliveTimeout: number;
  maxHeaderSize: number;
  connectionsCheckingInterval: number;
}

/** Sets kube's HTTP/1.1 header deadline, idle timeout and header size limit on server; call before listen(). */
export function applyHttp1Limits(server: object): void {
  const http1 = server as Http1Fields;
  http1.headersTimeout = readHeaderTimeoutMs;
  http1.keepAliveTimeout = idleTimeoutMs;
  http1.maxHeaderSize = http1MaxHeaderBytes;
  http1.connectionsCheckingInterval = headerSweepIntervalMs;
}

/** Closes session unless the client's connection preface (its first SETTINGS) arrives within timeoutMs (Go's 10 s). */
export function guardHttp2Preface(session: ServerHttp2Session, timeoutMs = http2PrefaceTimeoutMs): void {
  const timer = setTimeout(() => {
    if (!session.destroyed) session.destroy();
  }, timeoutMs);
  timer.unref();
  session.once('remoteSettings', () => clearTimeout(timer));
  session.once('close', () => clearTimeout(timer));
}

/** node's own answers to a request its parser refused (its default clientError handler's). */
const parserAnswers: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
  ERR_HTTP_REQUEST_TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
};
const badRequestAnswer = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';

/** How long a connection closed mid-request keeps reading before it is torn down (Go's rstAvoidanceDelay). */
const lingerMs = 500;

/**
 * Closes socket as Go's closeWriteAndWait does: the write side is shut after what was written, and
 * what the client still sends is read and dropped for half a second before the socket is destroyed,
 * so that a client still sending reads the answer rather than a reset.
 */
export function lingeringClose(socket: import('node:net').Socket): void {
  socket.end();
  socket.resume();
  setTimeout(() => socket.destroy(), lingerMs).unref();
}

/**
 * Answers an HTTP/1.1 request node's parser refused (a header past MaxHeaderBytes: 431) as node
 * does, but closes as Go's server does (closeWriteAndWait): the write side is shut after the
 * answer and what the client still sends is read and dropped for half a second, so that a client
 * still sending its oversized header reads the 431 rather than a reset. node's default handler
 * destroys the socket at once, which over TLS can drop the answer unsent.
 */
export function answerParserError(err: NodeJS.ErrnoException, socket: import('node:net').Socket): void {
  if (socket.destroyed) return;
  // As node: an answer only where no answer of a request on this connection has begun.
  const inFlight = (socket as unknown as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(parserAnswers[err.code ?? ''] ?? badRequestAnswer);
  lingeringClose(socket);
}
