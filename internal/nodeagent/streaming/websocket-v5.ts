/**
 * Exec/attach for WebSocket v5.channel.k8s.io clients (kubectl 1.30+) in front of a runtime whose
 * streaming server predates v5 (containerd 1.6), as kubelet's StreamTranslatorHandler does: the
 * client's WebSocket ends here and each channel becomes a stream of a SPDY v4.channel.k8s.io
 * session with the runtime. stdin (0) and resize (4) messages go to their SPDY streams, the CLOSE
 * signal (255, then the channel id) half-closes stdin, stdout (1), stderr (2) and the error
 * stream's metav1.Status (3, exit code included) come back as messages, and the WebSocket closes
 * once the runtime has sent the Status.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { StreamOptions } from './options.js';
import { Channel, channelV4, channelV5 } from './protocols.js';
import { dialUpgrade, spdyUpgradeHeaders } from './runtime-dial.js';
import { SpdyConnection } from './spdy/connection.js';
import type { SpdyStream } from './spdy/stream.js';

const server = new WebSocketServer({ noServer: true, perMessageDeflate: false, handleProtocols: (offered) => (offered.has(channelV5) ? channelV5 : false) });

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** Opens the SPDY streams kubelet's v4 server waits for: error first, then the requested ones. */
async function openStreams(conn: SpdyConnection, opts: StreamOptions): Promise<Record<'error' | 'stdin' | 'stdout' | 'stderr' | 'resize', SpdyStream | undefined>> {
  const open = (type: string): Promise<SpdyStream> => conn.openStream({ streamtype: [type] });
  const error = await open('error');
  // The error stream is read-only for the client: half-close it now, as client-go does.
  error.end();
  const stdin = opts.stdin ? await open('stdin') : undefined;
  const stdout = opts.stdout ? await open('stdout') : undefined;
  const stderr = opts.stderr ? await open('stderr') : undefined;
  const resize = opts.tty ? await open('resize') : undefined;
  return { error, stdin, stdout, stderr, resize };
}

/** Serves a v5 WebSocket exec/attach against the runtime's URL; resolves when the session is over. */
export async function translateWebSocketV5(req: IncomingMessage, res: ServerResponse, url: string, opts: StreamOptions): Promise<void> {
  const answer = await dialUpgrade(url, 'POST', spdyUpgradeHeaders([channelV4]));
  if (!answer.upgraded) {
    const body = await new Promise<string>((resolve) => {
      let text = '';
      answer.response.on('data', (c: Buffer) => (text += c.toString()));
      answer.response.on('end', () => resolve(text));
    });
    res.writeHead(answer.response.statusCode ?? 502, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(body);
    return;
  }
  const conn = new SpdyConnection(answer.socket, { client: true, flowControl: false });
  if (answer.head.length > 0) answer.socket.unshift(answer.head);
  conn.on('error', () => conn.destroy());
  let streams: Awaited<ReturnType<typeof openStreams>>;
  try {
    streams = await openStreams(conn, opts);
  } catch (err) {
    conn.destroy();
    res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(`error creating streams to the runtime: ${(err as Error).message}`);
    return;
  }
  const socket = req.socket;
  res.detachSocket(socket);
  const ws = await new Promise<WebSocket>((resolve) => server.handleUpgrade(req, socket, Buffer.alloc(0), resolve));
  await bridge(ws, conn, streams);
  res.emit('close');
}

function bridge(ws: WebSocket, conn: SpdyConnection, streams: Awaited<ReturnType<typeof openStreams>>): Promise<void> {
  return new Promise((resolve) => {
    const send = (channel: number, data: Buffer): void => {
      if (ws.readyState === ws.OPEN) ws.send(Buffer.concat([Buffer.from([channel]), data]), { binary: true });
    };
    streams.stdout?.on('data', (c: Buffer) => send(Channel.stdout, c));
    streams.stderr?.on('data', (c: Buffer) => send(Channel.stderr, c));
    const status: Buffer[] = [];
    streams.error?.on('data', (c: Buffer) => status.push(c));
    // Output streams end before the Status is written (the runtime copies them out first); the
    // Status ends the session.
    const outputsDone = Promise.all(
      [streams.stdout, streams.stderr].filter((s): s is SpdyStream => s !== undefined).map((s) => new Promise<void>((r) => (s.readableEnded ? r() : (s.on('end', () => r()), s.on('close', () => r()))))),
    );
    const errorDone = new Promise<void>((r) => {
      streams.error?.on('end', () => r());
      streams.error?.on('close', () => r());
      conn.on('close', () => r());
    });
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      void conn.close().catch(() => undefined);
      conn.destroy();
      if (ws.readyState === ws.OPEN) ws.close(1000);
      resolve();
    };
    void errorDone.then(async () => {
      await Promise.race([outputsDone, new Promise((r) => setTimeout(r, 1000))]);
      const body = Buffer.concat(status);
      if (body.length > 0) send(Channel.error, body);
      finish();
    });
    ws.on('message', (data: RawData) => {
      const msg = toBuffer(data);
      if (msg.length === 0) return;
      const payload = msg.subarray(1);
      switch (msg[0]) {
        case Channel.stdin:
          if (payload.length > 0) streams.stdin?.write(payload);
          return;
        case Channel.resize:
          streams.resize?.write(payload);
          return;
        case Channel.close:
          if (payload[0] === Channel.stdin) streams.stdin?.end();
          return;
        default:
          return;
      }
    });
    ws.on('close', finish);
    ws.on('error', finish);
  });
}
