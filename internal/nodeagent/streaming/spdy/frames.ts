/**
 * SPDY/3.1 frames (draft 3.1, section 2.2): the 8-byte control and data frame headers and the
 * control frames' fixed fields. Header blocks travel here as their compressed bytes; the
 * connection owns the per-direction zlib streams that turn them into name/value pairs
 * (header-block.ts), because compression state spans every frame of a connection.
 */

/** Control frame types (SPDY/3 section 2.6). */
export const FrameType = {
  SynStream: 1,
  SynReply: 2,
  RstStream: 3,
  Settings: 4,
  Ping: 6,
  GoAway: 7,
  Headers: 8,
  WindowUpdate: 9,
} as const;

/** FLAG_FIN on data frames and SYN_STREAM/SYN_REPLY/HEADERS. */
export const FlagFin = 0x01;
/** FLAG_UNIDIRECTIONAL on SYN_STREAM. */
export const FlagUnidirectional = 0x02;
/** SETTINGS_INITIAL_WINDOW_SIZE. */
export const SettingsInitialWindowSize = 7;
/** The window every stream starts with unless SETTINGS say otherwise (64 KiB). */
export const DefaultInitialWindow = 65_536;
/** RST_STREAM status codes used here. */
export const RstStatus = { ProtocolError: 1, InvalidStream: 2, RefusedStream: 3, Cancel: 5, InternalError: 6, FlowControlError: 7 } as const;

/** One decoded frame, its header block (when it has one) still compressed. */
export type Frame =
  | { type: 'data'; streamId: number; flags: number; data: Buffer }
  | { type: 'syn_stream'; flags: number; streamId: number; associatedStreamId: number; priority: number; slot: number; headerBlock: Buffer }
  | { type: 'syn_reply'; flags: number; streamId: number; headerBlock: Buffer }
  | { type: 'headers'; flags: number; streamId: number; headerBlock: Buffer }
  | { type: 'rst_stream'; flags: number; streamId: number; status: number }
  | { type: 'settings'; flags: number; entries: Array<{ flags: number; id: number; value: number }> }
  | { type: 'ping'; flags: number; id: number }
  | { type: 'goaway'; flags: number; lastGoodStreamId: number; status: number }
  | { type: 'window_update'; flags: number; streamId: number; delta: number }
  | { type: 'unknown'; frameType: number; flags: number; payload: Buffer };

const version = 3;
const maxLength = 0xffffff;

function controlFrame(type: number, flags: number, payload: Buffer): Buffer {
  if (payload.length > maxLength) throw new Error(`SPDY frame payload of ${payload.length} bytes exceeds 2^24-1`);
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8000 | version, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(((flags & 0xff) << 24 | payload.length) >>> 0, 4);
  return Buffer.concat([head, payload]);
}

function u32(...values: number[]): Buffer {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => b.writeUInt32BE(v >>> 0, 4 * i));
  return b;
}

/** Encodes a frame (header blocks already compressed). */
export function encodeFrame(frame: Exclude<Frame, { type: 'unknown' }>): Buffer {
  switch (frame.type) {
    case 'data': {
      if (frame.data.length > maxLength) throw new Error(`SPDY data frame of ${frame.data.length} bytes exceeds 2^24-1`);
      return Buffer.concat([u32(frame.streamId & 0x7fffffff, ((frame.flags & 0xff) << 24 | frame.data.length) >>> 0), frame.data]);
    }
    case 'syn_stream': {
      const fixed = Buffer.alloc(10);
      fixed.writeUInt32BE(frame.streamId & 0x7fffffff, 0);
      fixed.writeUInt32BE(frame.associatedStreamId & 0x7fffffff, 4);
      fixed.writeUInt8((frame.priority & 0x7) << 5, 8);
      fixed.writeUInt8(frame.slot & 0xff, 9);
      return controlFrame(FrameType.SynStream, frame.flags, Buffer.concat([fixed, frame.headerBlock]));
    }
    case 'syn_reply':
      return controlFrame(FrameType.SynReply, frame.flags, Buffer.concat([u32(frame.streamId & 0x7fffffff), frame.headerBlock]));
    case 'headers':
      return controlFrame(FrameType.Headers, frame.flags, Buffer.concat([u32(frame.streamId & 0x7fffffff), frame.headerBlock]));
    case 'rst_stream':
      return controlFrame(FrameType.RstStream, frame.flags, u32(frame.streamId & 0x7fffffff, frame.status));
    case 'settings': {
      const body = Buffer.alloc(4 + 8 * frame.entries.length);
      body.writeUInt32BE(frame.entries.length, 0);
      frame.entries.forEach((e, i) => {
        body.writeUInt32BE(((e.flags & 0xff) << 24 | (e.id & 0xffffff)) >>> 0, 4 + 8 * i);
        body.writeUInt32BE(e.value >>> 0, 8 + 8 * i);
      });
      return controlFrame(FrameType.Settings, frame.flags, body);
    }
    case 'ping':
      return controlFrame(FrameType.Ping, frame.flags, u32(frame.id));
    case 'goaway':
      return controlFrame(FrameType.GoAway, frame.flags, u32(frame.lastGoodStreamId & 0x7fffffff, frame.status));
    case 'window_update':
      return controlFrame(FrameType.WindowUpdate, frame.flags, u32(frame.streamId & 0x7fffffff, frame.delta & 0x7fffffff));
  }
}

function decodeControl(type: number, flags: number, p: Buffer): Frame {
  const need = (n: number): void => {
    if (p.length < n) throw new Error(`SPDY control frame type ${type} too short (${p.length} bytes)`);
  };
  switch (type) {
    case FrameType.SynStream:
      need(10);
      return { type: 'syn_stream', flags, streamId: p.readUInt32BE(0) & 0x7fffffff, associatedStreamId: p.readUInt32BE(4) & 0x7fffffff, priority: p[8]! >> 5, slot: p[9]!, headerBlock: p.subarray(10) };
    case FrameType.SynReply:
      need(4);
      return { type: 'syn_reply', flags, streamId: p.readUInt32BE(0) & 0x7fffffff, headerBlock: p.subarray(4) };
    case FrameType.Headers:
      need(4);
      return { type: 'headers', flags, streamId: p.readUInt32BE(0) & 0x7fffffff, headerBlock: p.subarray(4) };
    case FrameType.RstStream:
      need(8);
      return { type: 'rst_stream', flags, streamId: p.readUInt32BE(0) & 0x7fffffff, status: p.readUInt32BE(4) };
    case FrameType.Settings: {
      need(4);
      const n = p.readUInt32BE(0);
      need(4 + 8 * n);
      const entries = [];
      for (let i = 0; i < n; i++) {
        const word = p.readUInt32BE(4 + 8 * i);
        entries.push({ flags: word >>> 24, id: word & 0xffffff, value: p.readUInt32BE(8 + 8 * i) });
      }
      return { type: 'settings', flags, entries };
    }
    case FrameType.Ping:
      need(4);
      return { type: 'ping', flags, id: p.readUInt32BE(0) };
    case FrameType.GoAway:
      need(8);
      return { type: 'goaway', flags, lastGoodStreamId: p.readUInt32BE(0) & 0x7fffffff, status: p.readUInt32BE(4) };
    case FrameType.WindowUpdate:
      need(8);
      return { type: 'window_update', flags, streamId: p.readUInt32BE(0) & 0x7fffffff, delta: p.readUInt32BE(4) & 0x7fffffff };
    default:
      return { type: 'unknown', frameType: type, flags, payload: p };
  }
}

/**
 * Splits complete frames off the front of buf. Returns the frames and the bytes left over (a
 * partial frame). Throws on a control frame of another SPDY version.
 */
export function decodeFrames(buf: Buffer): { frames: Frame[]; rest: Buffer } {
  const frames: Frame[] = [];
  let off = 0;
  while (buf.length - off >= 8) {
    const word0 = buf.readUInt32BE(off);
    const word1 = buf.readUInt32BE(off + 4);
    const length = word1 & 0xffffff;
    if (buf.length - off < 8 + length) break;
    const flags = word1 >>> 24;
    const payload = buf.subarray(off + 8, off + 8 + length);
    if (word0 & 0x80000000) {
      const v = (word0 >>> 16) & 0x7fff;
      if (v !== version) throw new Error(`unsupported SPDY version ${v}`);
      frames.push(decodeControl(word0 & 0xffff, flags, payload));
    } else {
      frames.push({ type: 'data', streamId: word0 & 0x7fffffff, flags, data: payload });
    }
    off += 8 + length;
  }
  return { frames, rest: buf.subarray(off) };
}
