/**
 * The secure port's listener: one TLS server that speaks HTTP/2 to clients that offer it by ALPN
 * (kubectl, client-go) and HTTP/1.1 to the rest, as Go's net/http server does for kube-apiserver.
 * The TLS is ServingTls's (SNI certificates, client CAs refreshed live, minimum version, ciphers);
 * client certificates are judged per connection, so renegotiation is off when they are asked for.
 * HTTP/2 sessions get kube's settings (max concurrent streams, 256 KiB stream windows and frames, a
 * connection window for every stream, 90 s idle timeout). Connections that hold the server without
 * asking anything are cut as kube-apiserver's http.Server cuts them (see serving/timeouts.ts).
 * Upgrades (WebSocket, SPDY) stay on HTTP/1.1 and go through the same handler on a response bound
 * to their socket.
 */
import { Server as HttpServer, ServerResponse, type IncomingMessage } from 'node:http';
import { createSecureServer, type Http2SecureServer, type Http2ServerRequest, type Http2ServerResponse, type ServerHttp2Session } from 'node:http2';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { KlogLogger } from '../../observability/logging.js';
import { goDefaultMaxStreams, type Http2Options } from '../options/http2.js';
import type { ServingTls } from '../tls/serving-tls.js';
import type { ClosableListener } from '../lifecycle/graceful-shutdown.js';
import { upgradeResponse } from './upgrade-response.js';
import { answerParserError, applyHttp1Limits, guardHttp2Preface, http2MaxHeaderListBytes, http2MaxHeaderPairs, idleTimeoutMs, tlsHandshakeTimeoutMs } from './timeouts.js';

/** A request handler of the chain; HTTP/2 requests come typed as their HTTP/1 counterparts. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** What the listener serves. */
export interface ListenerConfig {
  readonly tls: ServingTls;
  readonly http2: Http2Options;
  /**
   * Every request: HTTP/1.1 ones (upgrades included) as node:http's pair, HTTP/2 ones as
   * node:http2's compatibility pair typed as node:http's (see serving/protocol.ts).
   */
  readonly handler: RequestHandler;
  /** Whether client certificates are asked for now (renegotiation is then refused). */
  readonly clientCertificates: () => boolean;
  readonly log: KlogLogger;
}

/** kube's resourceBody99Percentile: the per-stream window and the largest frame read. */
const streamWindowBytes = 256 * 1024;

/** Connections accepted, by the protocol ALPN settled on. */
export interface ProtocolCounts {
  h2: number;
  'http/1.1': number;
}

/** The listening TLS server of the secure port. */
export class SecureListener implements ClosableListener {
  readonly server: Http2SecureServer;
  /** Every open TCP connection (both protocols). */
  readonly sockets = new Set<Socket>();
  /** Every open HTTP/2 session. */
  readonly sessions = new Set<ServerHttp2Session>();
  /** Connections accepted so far, by negotiated protocol. */
  readonly accepted: ProtocolCounts = { h2: 0, 'http/1.1': 0 };
  private closing = false;

  constructor(private readonly cfg: ListenerConfig) {
    const maxStreams = cfg.http2.maxStreamsPerConnection > 0 ? cfg.http2.maxStreamsPerConnection : goDefaultMaxStreams;
    const { handler } = cfg;
    this.server = createSecureServer(
      {
        ...cfg.tls.serverOptions(),
        allowHTTP1: true,
        ALPNProtocols: ['h2', 'http/1.1'],
        // Go's HTTP/2 server advertises MaxHeaderBytes plus 10 fields' overhead and counts no
        // header pairs; node's default would refuse a request past 128 header fields.
        settings: { maxConcurrentStreams: maxStreams, initialWindowSize: streamWindowBytes, maxFrameSize: streamWindowBytes, maxHeaderListSize: http2MaxHeaderListBytes },
        maxHeaderListPairs: http2MaxHeaderPairs,
        handshakeTimeout: tlsHandshakeTimeoutMs,
        // Every stream may fill its window before the connection's runs out (kube's
        // MaxUploadBufferPerConnection).
        maxSessionMemory: Math.max(10, Math.ceil((streamWindowBytes * maxStreams) / (1024 * 1024))),
      },
      handler as unknown as (req: Http2ServerRequest, res: Http2ServerResponse) => void,
    );
    cfg.tls.attach(this.server);
    applyHttp1Limits(this.server);
    this.server.on('secureConnection', (s: TLSSocket) => {
      // Client-certificate decisions are cached per connection: a connection keeps its certificate.
      if (cfg.clientCertificates()) s.disableRenegotiation();
      this.accepted[s.alpnProtocol === 'h2' ? 'h2' : 'http/1.1']++;
    });
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.once('close', () => this.sockets.delete(s));
    });
    this.server.on('session', (session: ServerHttp2Session) => this.track(session, maxStreams));
    this.server.on('tlsClientError', (err) => cfg.log.v(4, `TLS handshake error: ${err.message}`));
    this.server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => answerParserError(err, socket));
    this.server.on('sessionError', (err) => cfg.log.v(4, `HTTP/2 session error: ${err.message}`));
    // Upgrade requests (WebSocket, SPDY; HTTP/1.1 only) run through the same chain on a response
    // bound to their socket: the aggregator joins the socket to an extension server's after its
    // 101; anything else is answered as an ordinary request, and the connection closes after it.
    this.server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => handler(req, upgradeResponse(req, socket, head)));
  }

  /** Listens on host:port (0: any free port); resolves with the port bound. */
  listen(port: number, host: string): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.server.once('error', reject);
      // SO_REUSEADDR: libuv sets it on every listening TCP socket, as Go's net package does, so
      // --permit-address-sharing either way binds as kube-apiserver binds. SO_REUSEPORT only when
      // asked (the flag is refused where this Node cannot set it).
      const options = { port, host, ...(this.cfg.http2.permitPortSharing ? { reusePort: true } : {}) };
      this.server.listen(options, () => {
        this.server.off('error', reject);
        const addr = this.server.address();
        resolve(typeof addr === 'object' && addr ? addr.port : port);
      });
    });
  }

  /**
   * Stops listening; every HTTP/2 session gets GOAWAY and closes once its streams have ended;
   * callback runs when the last connection has closed.
   */
  close(callback: () => void): void {
    this.closing = true;
    this.server.close(() => callback());
    for (const session of this.sessions) if (!session.closed) session.close();
  }

  /** Closes the HTTP/1.1 connections that are between requests. */
  closeIdleConnections(): void {
    // The HTTP/1.1 side keeps its connection list where node:http's Server looks for it.
    HttpServer.prototype.closeIdleConnections.call(this.server as unknown as HttpServer);
  }

  private track(session: ServerHttp2Session, maxStreams: number): void {
    this.sessions.add(session);
    session.once('close', () => this.sessions.delete(session));
    if (this.closing) {
      session.close();
      return;
    }
    guardHttp2Preface(session);
    session.once('localSettings', () => {
      if (!session.destroyed) session.setLocalWindowSize(streamWindowBytes * maxStreams);
    });
    // Go's IdleTimeout: a connection without streams for 90 s is closed (a quiet watch is a stream).
    let open = 0;
    session.on('stream', (stream) => {
      open++;
      stream.once('close', () => open--);
    });
    session.setTimeout(idleTimeoutMs, () => {
      if (open === 0) session.close();
    });
  }
}
