/**
 * Connections that hold the server without asking anything: TCP that never starts TLS, TLS that
 * never sends a request (HTTP/1.1) or a connection preface (HTTP/2), and slowloris clients that
 * send a request header a byte a second. Each records when the server closed it.
 */
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** The ways a connection can idle. */
export type IdleKind = 'tcp' | 'tls' | 'h2' | 'slowloris';

/** One idle connection. */
export interface IdleConnection {
  readonly kind: IdleKind;
  /** When it was connected (TCP), in performance.now() milliseconds. */
  readonly openedAt: number;
  /** When the server closed it, once it has. */
  closedAt: number | undefined;
  /** Whether the TLS handshake completed (always false for tcp). */
  secured: boolean;
  /** Bytes of header sent (slowloris). */
  sent: number;
  /** What the server wrote back before closing, if anything (e.g. a 408). */
  answer: string;
  destroy(): void;
}

/** Opens one idle connection of kind to 127.0.0.1:port; resolves once connected (and secured, for TLS kinds). */
export function openIdle(kind: IdleKind, port: number, ca: string): Promise<IdleConnection> {
  return new Promise((resolve, reject) => {
    let socket: Socket;
    let drip: NodeJS.Timeout | undefined;
    const conn: IdleConnection = {
      kind,
      openedAt: performance.now(),
      closedAt: undefined,
      secured: false,
      sent: 0,
      answer: '',
      destroy: () => {
        clearInterval(drip);
        socket.destroy();
      },
    };
    if (kind === 'tcp') {
      socket = netConnect({ host: '127.0.0.1', port }, () => resolve(conn));
    } else {
      const alpn = kind === 'h2' ? ['h2'] : ['http/1.1'];
      socket = tlsConnect({ host: '127.0.0.1', port, ca, servername: 'localhost', ALPNProtocols: alpn }, () => {
        conn.secured = true;
        if (kind === 'slowloris') {
          // A request line and the start of a header, then one more byte of its value each second.
          const head = 'GET /version HTTP/1.1\r\nHost: localhost\r\nX-Slow: ';
          socket.write(head);
          conn.sent = head.length;
          drip = setInterval(() => {
            if (socket.writable) {
              socket.write('a');
              conn.sent++;
            }
          }, 1000);
        }
        resolve(conn);
      });
    }
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      if (conn.answer.length < 200) conn.answer += d;
    });
    socket.once('close', () => {
      clearInterval(drip);
      conn.closedAt = performance.now();
    });
    socket.once('error', (err) => {
      if (conn.closedAt === undefined && !conn.secured && kind !== 'tcp') reject(err);
    });
  });
}
