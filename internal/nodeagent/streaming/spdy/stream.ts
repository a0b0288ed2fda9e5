/**
 * One SPDY stream as a Node Duplex: what is written goes out as DATA frames (within the peer's
 * window when the connection enforces it), end() sends FIN (a half-close), the peer's DATA is
 * read, and the peer's FIN ends the readable side. reset() sends RST_STREAM.
 */
import { Duplex } from 'node:stream';
import type { SpdyHeaders } from './header-block.js';

/** What a stream needs from its connection. */
export interface StreamOwner {
  sendData(stream: SpdyStream, data: Buffer, fin: boolean): Promise<void>;
  sendReset(stream: SpdyStream, status: number): void;
  sendReply(stream: SpdyStream, headers: SpdyHeaders, fin: boolean): Promise<void>;
  /** The reader took bytes: the connection may open the receive window again. */
  consumed(stream: SpdyStream, bytes: number): void;
}

/** A SPDY stream. */
export class SpdyStream extends Duplex {
  /** Bytes the peer still lets us send (its receive window for this stream). */
  sendWindow: number;
  /** Bytes we still accept before the peer must wait for our WINDOW_UPDATE. */
  receiveWindow: number;
  /** The peer's headers (SYN_STREAM for incoming streams, SYN_REPLY for outgoing ones). */
  peerHeaders: SpdyHeaders = {};
  localFinished = false;
  remoteFinished = false;
  wasReset = false;
  private windowWaiters: Array<() => void> = [];

  constructor(
    readonly id: number,
    /** Headers sent (outgoing) or received (incoming) on SYN_STREAM. */
    readonly headers: SpdyHeaders,
    private readonly owner: StreamOwner,
    initialSendWindow: number,
    initialReceiveWindow: number,
  ) {
    super({ allowHalfOpen: true });
    // A write after the connection or the stream went fails the write and destroys the stream
    // (readers see 'close', wasReset tells a reset); the connection reports its own failure once,
    // so a stream error must not take the process down when nobody listens for it.
    this.on('error', () => undefined);
    this.sendWindow = initialSendWindow;
    this.receiveWindow = initialReceiveWindow;
  }

  /** Answers an incoming stream (SYN_REPLY). */
  reply(headers: SpdyHeaders = {}, fin = false): Promise<void> {
    if (fin) this.localFinished = true;
    return this.owner.sendReply(this, headers, fin);
  }

  /** Aborts the stream with RST_STREAM (CANCEL by default). */
  reset(status = 5): void {
    if (this.wasReset) return;
    this.wasReset = true;
    this.owner.sendReset(this, status);
    this.destroy();
  }

  /** Resolves at the next window change (stream or session) or when the stream is gone; callers re-check. */
  waitForWindow(): Promise<void> {
    if (this.destroyed) return Promise.resolve();
    return new Promise((resolve) => this.windowWaiters.push(resolve));
  }

  /** The connection grew (or shrank) the send window. */
  adjustSendWindow(delta: number): void {
    this.sendWindow += delta;
    if (this.sendWindow > 0) this.wakeWindowWaiters();
  }

  /** Wakes writers waiting for window (also when the connection window opens or the stream dies). */
  wakeWindowWaiters(): void {
    const waiters = this.windowWaiters;
    this.windowWaiters = [];
    for (const w of waiters) w();
  }

  /** Peer DATA arrived. */
  receive(data: Buffer, fin: boolean): void {
    if (data.length > 0) {
      this.receiveWindow -= data.length;
      this.push(data);
      // Node buffers what we push; the window reopens as soon as it is handed to the reader.
      this.owner.consumed(this, data.length);
    }
    if (fin) this.remoteFinish();
  }

  /** The peer half-closed. */
  remoteFinish(): void {
    if (this.remoteFinished) return;
    this.remoteFinished = true;
    this.push(null);
  }

  override _read(): void {
    // Data is pushed as frames arrive.
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.owner.sendData(this, chunk, false).then(() => cb(), cb);
  }

  override _final(cb: (err?: Error | null) => void): void {
    if (this.localFinished || this.wasReset) return cb();
    this.localFinished = true;
    this.owner.sendData(this, Buffer.alloc(0), true).then(() => cb(), cb);
  }

  override _destroy(err: Error | null, cb: (err?: Error | null) => void): void {
    this.wakeWindowWaiters();
    cb(err);
  }
}
