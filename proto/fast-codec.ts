/**
 * The compiled codec's entry points: per-message decoders and encoders compiled on first use
 * (fast-decode.ts, fast-encode.ts) and one reused writer. Each function throws (FastPathError or
 * any other error) where the input needs the reference walk; codec.ts then runs the reference,
 * which returns the same result or raises the typed error.
 */
import { FastReader, fastPathFail, readLengthEnd, readString, readUint32, skipField } from './fast-reader.js';
import { compileDecoder } from './fast-decode.js';
import { compileEncoder } from './fast-encode.js';
import type { FastDecoder, FastEncoder, FastLookup } from './fast-special.js';
import { FastPathError, FastWriter } from './fast-writer.js';
import { messageSpec } from './registry.js';
import type { JsonObject, JsonValue } from './types.js';

const decoders = new Map<string, { fn: FastDecoder }>();
const encoders = new Map<string, { fn: FastEncoder }>();

function failing(err: unknown): () => never {
  const message = `not compiled: ${err instanceof Error ? err.message : String(err)}`;
  return () => {
    throw new FastPathError(message);
  };
}

const lookup: FastLookup = {
  decoder(fullName) {
    let cell = decoders.get(fullName);
    if (!cell) {
      const c: { fn: FastDecoder } = {
        fn: (r, end, present, out) => {
          try {
            c.fn = compileDecoder(messageSpec(fullName), lookup);
          } catch (err) {
            c.fn = failing(err);
          }
          return c.fn(r, end, present, out);
        },
      };
      decoders.set(fullName, (cell = c));
    }
    return cell;
  },
  encoder(fullName) {
    let cell = encoders.get(fullName);
    if (!cell) {
      const c: { fn: FastEncoder } = {
        fn: (w, value) => {
          try {
            c.fn = compileEncoder(messageSpec(fullName), lookup);
          } catch (err) {
            c.fn = failing(err);
          }
          c.fn(w, value);
        },
      };
      encoders.set(fullName, (cell = c));
    }
    return cell;
  },
};

const MAX_KEPT = 1 << 20;
let shared: FastWriter | undefined;
let busy = false;

/** Runs write on the shared writer (a fresh one if a write is already under way) and returns a copy of its bytes. */
function withWriter(write: (w: FastWriter) => void): Buffer {
  const useShared = !busy;
  const w = useShared ? (shared ??= new FastWriter()) : new FastWriter(4096);
  if (useShared) busy = true;
  try {
    w.pos = 0;
    w.depth = 0;
    write(w);
    return w.copyOut(0);
  } finally {
    if (useShared) {
      busy = false;
      if (w.buf.length > MAX_KEPT) shared = undefined;
    }
  }
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Encodes one message's JSON form to wire bytes (no envelope). */
export function fastJsonToProtobuf(messageFullName: string, obj: JsonValue): Buffer {
  const encoder = lookup.encoder(messageFullName);
  return withWriter((w) => encoder.fn(w, obj));
}

/** Encodes an object into a whole `k8s\0` body: the envelope written around the message in one buffer. */
export function fastEncodeObject(messageFullName: string, apiVersion: string, kind: string, obj: JsonObject): Buffer {
  const encoder = lookup.encoder(messageFullName);
  return withWriter((w) => {
    w.ensure(4);
    w.buf.writeUInt32BE(0x6b387300, 0);
    w.pos = 4;
    w.byte(0x0a);
    const meta = w.begin();
    w.byte(0x0a);
    w.string(apiVersion);
    w.byte(0x12);
    w.string(kind);
    w.end(meta);
    w.byte(0x12);
    const raw = w.begin();
    encoder.fn(w, obj);
    w.end(raw);
    w.byte2(0x1a, 0);
    w.byte2(0x22, 0);
  });
}

/** Decodes one message's wire bytes to its JSON form. */
export function fastProtobufToJson(messageFullName: string, bytes: Uint8Array, bigints: boolean, decodeEnvelope: (b: Uint8Array) => JsonValue): JsonValue {
  const r = new FastReader(asBuffer(bytes), Buffer.isBuffer(bytes), bigints, decodeEnvelope);
  return lookup.decoder(messageFullName).fn(r, bytes.byteLength, true);
}

/** The envelope's apiVersion, kind and the message's byte range, or a throw for anything but a plain envelope. */
export function fastReadEnvelope(r: FastReader): { apiVersion: string; kind: string; start: number; end: number } {
  const buf = r.buf;
  const len = buf.length;
  if (len < 4 || buf[0] !== 0x6b || buf[1] !== 0x38 || buf[2] !== 0x73 || buf[3] !== 0) fastPathFail('magic');
  r.pos = 4;
  let apiVersion = '';
  let kind = '';
  let start = 0;
  let end = 0;
  while (r.pos < len) {
    const tag = readUint32(r, len);
    if (tag === 0x0a) {
      const e = readLengthEnd(r, len);
      apiVersion = '';
      kind = '';
      while (r.pos < e) {
        const t = readUint32(r, e);
        if (t === 0x0a) apiVersion = readString(r, readLengthEnd(r, e));
        else if (t === 0x12) kind = readString(r, readLengthEnd(r, e));
        else if (t >>> 3 === 0) fastPathFail('type meta');
        else skipField(r, t & 7, e);
      }
    } else if (tag === 0x12) {
      end = readLengthEnd(r, len);
      start = r.pos;
      r.pos = end;
    } else if (tag === 0x1a || tag === 0x22) {
      const e = readLengthEnd(r, len);
      if (e !== r.pos) fastPathFail('content encoding or type');
    } else if (tag >>> 3 <= 4) fastPathFail('envelope field');
    else skipField(r, tag & 7, len);
  }
  return { apiVersion, kind, start, end };
}

/** Decodes a whole `k8s\0` body to the object's JSON form (kind and apiVersion first); messageFor maps the envelope's type to a message. */
export function fastDecodeObject(
  bytes: Uint8Array,
  bigints: boolean,
  messageFor: (apiVersion: string, kind: string) => string,
  decodeEnvelope: (b: Uint8Array) => JsonValue,
): JsonObject {
  const r = new FastReader(asBuffer(bytes), Buffer.isBuffer(bytes), bigints, decodeEnvelope);
  const { apiVersion, kind, start, end } = fastReadEnvelope(r);
  const message = messageFor(apiVersion, kind);
  if (messageSpec(message).special) fastPathFail('special top-level message');
  r.pos = start;
  const out: JsonObject = { kind, apiVersion };
  lookup.decoder(message).fn(r, end, true, out);
  return out;
}
