/**
 * A SPDY/3.1 session over an upgraded connection, either end: streams opened here (odd ids from
 * a client, even from a server) wait for the peer's SYN_REPLY before they carry data, as Go's
 * spdystream (containerd's and kubelet's) drops DATA on a stream it has not answered; incoming
 * SYN_STREAMs become 'stream' events. PINGs are answered, GOAWAY stops new streams, SETTINGS
 * INITIAL_WINDOW_SIZE resizes stream windows, and receive windows (per stream and for the session)
 * are reopened with WINDOW_UPDATE as data is taken, and send windows honoured, when flowControl is
 * on. Go's spdystream (containerd's streaming server) has no flow control: it never sends
 * WINDOW_UPDATE, so writes would stall after 64 KiB, and it drops the connection on a session-level
 * one, so towards it flowControl must be off.
 */
import { EventEmitter } from 'node:events';
import type { Duplex } from 'node:stream';
import { decodeFrames, DefaultInitialWindow, encodeFrame, FlagFin, RstStatus, SettingsInitialWindowSize, type Frame } from './frames.js';
import { HeaderCompressor, HeaderDecompressor, type SpdyHeaders } from './header-block.js';
import { SpdyStream, type StreamOwner } from './stream.js';

/** How a session behaves. */
export interface SpdyConnectionOptions {
  /** The side that opened the HTTP upgrade (odd stream and ping ids). */
  readonly client: boolean;
  /** SPDY/3.1 flow control: honour the peer's windows and send WINDOW_UPDATE for ours. Default true. */
  readonly flowControl?: boolean;
  /** Largest DATA frame sent (default 32 KiB). */
  readonly maxFrameSize?: number;
}

/** A SPDY/3.1 session. Events: 'stream' (SpdyStream, incoming), 'close', 'error'. */
export class SpdyConnection extends EventEmitter implements StreamOwner {
  private readonly streams = new Map<number, SpdyStream>();
  private readonly replyWaiters = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  private readonly compressor = new HeaderCompressor();
  private readonly decompressor = new HeaderDecompressor();
  private nextStreamId: number;
  private nextPingId: number;
  private readonly pings = new Map<number, () => void>();
  private pending: Buffer = Buffer.alloc(0);
  private inbound: Promise<void> = Promise.resolve();
  private outbound: Promise<void> = Promise.resolve();
  private initialSendWindow = DefaultInitialWindow;
  private readonly initialReceiveWindow = DefaultInitialWindow;
  private sessionSendWindow = DefaultInitialWindow;
  private sessionUnacked = 0;
  private goneAway = false;
  private closed = false;
  private readonly enforce: boolean;
  private readonly maxFrame: number;

  constructor(private readonly socket: Duplex, private readonly options: SpdyConnectionOptions) {
    super();
    this.nextStreamId = options.client ? 1 : 2;
    this.nextPingId = options.client ? 1 : 2;
    this.enforce = options.flowControl ?? true;
    this.maxFrame = options.maxFrameSize ?? 32 * 1024;
    socket.on('data', (chunk: Buffer) => this.onBytes(chunk));
    // Frames already read are still being handled (header blocks decompress asynchronously):
    // the end of the connection queues behind them, or the last DATA frames would be lost.
    const end = (): void => {
      this.inbound = this.inbound.then(() => this.teardown());
    };
    socket.on('close', end);
    socket.on('end', end);
    socket.on('error', (err: Error) => {
      this.emit('error', err);
      end();
    });
  }

  /** Opens a stream with headers; resolves once the peer replied (rejects on RST_STREAM or close). */
  async openStream(headers: SpdyHeaders, opts: { fin?: boolean; priority?: number } = {}): Promise<SpdyStream> {
    if (this.goneAway || this.closed) throw new Error('SPDY connection is closed');
    const id = this.nextStreamId;
    this.nextStreamId += 2;
    const stream = new SpdyStream(id, headers, this, this.initialSendWindow, this.initialReceiveWindow);
    if (opts.fin) stream.localFinished = true;
    this.streams.set(id, stream);
    const replied = new Promise<void>((resolve, reject) => this.replyWaiters.set(id, { resolve, reject }));
    await this.enqueue(async () => {
      const headerBlock = await this.compressor.compress(headers);
      return encodeFrame({ type: 'syn_stream', flags: opts.fin ? FlagFin : 0, streamId: id, associatedStreamId: 0, priority: opts.priority ?? 0, slot: 0, headerBlock });
    });
    await replied;
    return stream;
  }

  /** Sends a PING and resolves when its echo comes back. */
  ping(): Promise<void> {
    const id = this.nextPingId;
    this.nextPingId += 2;
    return new Promise((resolve) => {
      this.pings.set(id, resolve);
      void this.enqueue(() => encodeFrame({ type: 'ping', flags: 0, id }));
    });
  }

  /** Tells the peer our stream window (SETTINGS INITIAL_WINDOW_SIZE). */
  sendSettings(initialWindow: number): Promise<void> {
    return this.enqueue(() => encodeFrame({ type: 'settings', flags: 0, entries: [{ flags: 0, id: SettingsInitialWindowSize, value: initialWindow }] }));
  }

  /** Sends GOAWAY and closes the connection once written. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (!this.goneAway) {
      this.goneAway = true;
      const last = [...this.streams.keys()].filter((id) => (id % 2 === 1) !== this.options.client).reduce((a, b) => Math.max(a, b), 0);
      await this.enqueue(() => encodeFrame({ type: 'goaway', flags: 0, lastGoodStreamId: last, status: 0 })).catch(() => undefined);
    }
    this.socket.end();
    this.teardown();
  }

  /** Destroys the connection without GOAWAY. */
  destroy(): void {
    this.socket.destroy();
    this.teardown();
  }

  // StreamOwner.

  async sendData(stream: SpdyStream, data: Buffer, fin: boolean): Promise<void> {
    let off = 0;
    do {
      if (this.enforce && data.length > 0) {
        while (!stream.destroyed && (stream.sendWindow <= 0 || this.sessionSendWindow <= 0)) await stream.waitForWindow();
      }
      if (stream.destroyed || stream.wasReset) throw new Error('SPDY stream was reset');
      let n = Math.min(data.length - off, this.maxFrame);
      if (this.enforce) n = Math.min(n, stream.sendWindow, this.sessionSendWindow);
      const piece = data.subarray(off, off + n);
      off += n;
      stream.sendWindow -= n;
      this.sessionSendWindow -= n;
      const last = off >= data.length;
      await this.enqueue(() => encodeFrame({ type: 'data', streamId: stream.id, flags: fin && last ? FlagFin : 0, data: piece }));
    } while (off < data.length);
    if (fin) this.maybeForget(stream);
  }

  sendReset(stream: SpdyStream, status: number): void {
    this.streams.delete(stream.id);
    void this.enqueue(() => encodeFrame({ type: 'rst_stream', flags: 0, streamId: stream.id, status })).catch(() => undefined);
  }

  async sendReply(stream: SpdyStream, headers: SpdyHeaders, fin: boolean): Promise<void> {
    await this.enqueue(async () => encodeFrame({ type: 'syn_reply', flags: fin ? FlagFin : 0, streamId: stream.id, headerBlock: await this.compressor.compress(headers) }));
  }

  consumed(stream: SpdyStream, bytes: number): void {
    if (!this.enforce) return;
    // Reopen windows once half is used, as most SPDY peers do, rather than frame by frame.
    if (this.initialReceiveWindow - stream.receiveWindow >= this.initialReceiveWindow / 2 && !stream.remoteFinished) {
      const delta = this.initialReceiveWindow - stream.receiveWindow;
      stream.receiveWindow += delta;
      void this.enqueue(() => encodeFrame({ type: 'window_update', flags: 0, streamId: stream.id, delta })).catch(() => undefined);
    }
    this.sessionUnacked += bytes;
    if (this.sessionUnacked >= DefaultInitialWindow / 2) {
      const delta = this.sessionUnacked;
      this.sessionUnacked = 0;
      void this.enqueue(() => encodeFrame({ type: 'window_update', flags: 0, streamId: 0, delta })).catch(() => undefined);
    }
  }

  // Wire.

  /** Writes frames strictly in the order they were queued (header compression order included). */
  private enqueue(make: () => Buffer | Promise<Buffer>): Promise<void> {
    const next = this.outbound.then(async () => {
      if (this.closed) throw new Error('SPDY connection is closed');
      const bytes = await make();
      await new Promise<void>((resolve, reject) => this.socket.write(bytes, (err) => (err ? reject(err) : resolve())));
    });
    this.outbound = next.catch(() => undefined);
    return next;
  }

  private onBytes(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    let frames: Frame[];
    try {
      const decoded = decodeFrames(this.pending);
      frames = decoded.frames;
      this.pending = Buffer.from(decoded.rest);
    } catch (err) {
      this.emit('error', err);
      this.destroy();
      return;
    }
    for (const frame of frames) {
      this.inbound = this.inbound.then(() => this.handle(frame)).catch((err: unknown) => {
        this.emit('error', err);
        this.destroy();
      });
    }
  }

  private async handle(frame: Frame): Promise<void> {
    switch (frame.type) {
      case 'data': {
        const stream = this.streams.get(frame.streamId);
        if (!stream) return;
        stream.receive(frame.data, (frame.flags & FlagFin) !== 0);
        if ((frame.flags & FlagFin) !== 0) this.maybeForget(stream);
        return;
      }
      case 'syn_stream': {
        const headers = await this.decompressor.decompress(frame.headerBlock);
        if (this.goneAway || (frame.streamId % 2 === 1) !== !this.options.client || this.streams.has(frame.streamId)) {
          void this.enqueue(() => encodeFrame({ type: 'rst_stream', flags: 0, streamId: frame.streamId, status: RstStatus.ProtocolError })).catch(() => undefined);
          return;
        }
        const stream = new SpdyStream(frame.streamId, headers, this, this.initialSendWindow, this.initialReceiveWindow);
        stream.peerHeaders = headers;
        this.streams.set(frame.streamId, stream);
        this.emit('stream', stream);
        if ((frame.flags & FlagFin) !== 0) stream.remoteFinish();
        return;
      }
      case 'syn_reply': {
        const headers = await this.decompressor.decompress(frame.headerBlock);
        const stream = this.streams.get(frame.streamId);
        if (!stream) return;
        stream.peerHeaders = headers;
        this.replyWaiters.get(frame.streamId)?.resolve();
        this.replyWaiters.delete(frame.streamId);
        if ((frame.flags & FlagFin) !== 0) {
          stream.remoteFinish();
          this.maybeForget(stream);
        }
        return;
      }
      case 'headers': {
        const headers = await this.decompressor.decompress(frame.headerBlock);
        const stream = this.streams.get(frame.streamId);
        if (!stream) return;
        for (const [k, v] of Object.entries(headers)) stream.peerHeaders[k] = v;
        if ((frame.flags & FlagFin) !== 0) stream.remoteFinish();
        return;
      }
      case 'rst_stream': {
        const stream = this.streams.get(frame.streamId);
        this.streams.delete(frame.streamId);
        this.replyWaiters.get(frame.streamId)?.reject(new Error(`SPDY stream ${frame.streamId} was reset (status ${frame.status})`));
        this.replyWaiters.delete(frame.streamId);
        if (stream) {
          stream.wasReset = true;
          stream.remoteFinish();
          stream.destroy();
        }
        return;
      }
      case 'settings':
        for (const e of frame.entries) {
          if (e.id !== SettingsInitialWindowSize) continue;
          const delta = e.value - this.initialSendWindow;
          this.initialSendWindow = e.value;
          for (const s of this.streams.values()) s.adjustSendWindow(delta);
        }
        return;
      case 'ping':
        if ((frame.id % 2 === 1) === this.options.client) {
          this.pings.get(frame.id)?.();
          this.pings.delete(frame.id);
        } else {
          void this.enqueue(() => encodeFrame({ type: 'ping', flags: 0, id: frame.id })).catch(() => undefined);
        }
        return;
      case 'goaway':
        this.goneAway = true;
        return;
      case 'window_update':
        if (frame.streamId === 0) {
          this.sessionSendWindow += frame.delta;
          for (const s of this.streams.values()) s.wakeWindowWaiters();
        } else {
          this.streams.get(frame.streamId)?.adjustSendWindow(frame.delta);
        }
        return;
      case 'unknown':
        return;
    }
  }

  private maybeForget(stream: SpdyStream): void {
    if (stream.localFinished && stream.remoteFinished) this.streams.delete(stream.id);
  }

  private teardown(): void {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.replyWaiters.values()) w.reject(new Error('SPDY connection closed'));
    this.replyWaiters.clear();
    for (const s of this.streams.values()) {
      // What the peer sent stays readable; the stream goes once its reader has taken it all.
      s.remoteFinish();
      s.wakeWindowWaiters();
      if (s.readableEnded) s.destroy();
      else s.once('end', () => s.destroy());
    }
    this.streams.clear();
    this.compressor.close();
    this.decompressor.close();
    this.emit('close');
  }
}
