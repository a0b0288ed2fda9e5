/**
 * The compiled codec's special messages (special-types.ts gives their rules): Time, MicroTime,
 * Quantity, IntOrString and the raw-JSON kinds are read and written directly; the rarer kinds
 * (Duration, named string slices, the JSONSchemaPropsOr* unions) read their fields into the
 * reference's RawFields and reuse decodeSpecial, and are written here field by field.
 */
import { compareCodePoints } from './decode.js';
import { FastPathError, type FastWriter } from './fast-writer.js';
import { FastReader, type NodeBuffer, readInt64, readLengthEnd, readString, readUint32, skipField, fastPathFail } from './fast-reader.js';
import { formatRfc3339, GO_ZERO_TIME_SECONDS, parseGoDuration, parseRfc3339 } from './go-time.js';
import { decodeSpecial, stringifyJson, type RawFields } from './special-types.js';
import type { JsonObject, JsonValue, MessageSpec } from './types.js';

/** A compiled decoder: reads [r.pos, end) of one message; `out`, when given, receives the fields (embedded structs). */
export type FastDecoder = (r: FastReader, end: number, present: boolean, out?: JsonObject) => JsonValue;

/** A compiled encoder: writes the body of one message for a JSON value (undefined/null: the Go zero value). */
export type FastEncoder = (w: FastWriter, value: JsonValue | undefined) => void;

/** Looks up (compiling on first use) the decoder or encoder of a message by full name. */
export interface FastLookup {
  decoder(fullName: string): { fn: FastDecoder };
  encoder(fullName: string): { fn: FastEncoder };
}

let lastTime = { seconds: NaN, nanos: NaN, micro: false, text: '' };

function formatTime(seconds: number, nanos: number, micro: boolean): string {
  const c = lastTime;
  if (c.seconds === seconds && c.nanos === nanos && c.micro === micro) return c.text;
  const text = formatRfc3339(seconds, nanos, micro);
  lastTime = { seconds, nanos, micro, text };
  return text;
}

let lastParsed = { text: '', seconds: 0, nanos: 0 };

function parseTime(text: string): { seconds: number; nanos: number } {
  if (lastParsed.text === text) return lastParsed;
  const { seconds, nanos } = parseRfc3339(text, '');
  lastParsed = { text, seconds, nanos };
  return lastParsed;
}

const MAGIC0 = 0x6b;

/** stringifyJson's text: JSON.stringify's own for JSON values, stringifyJson's where a bigint (int64 beyond 2^53) makes it throw. */
function compactJson(value: JsonValue): string {
  try {
    return JSON.stringify(value);
  } catch {
    return stringifyJson(value);
  }
}

function decodeTime(micro: boolean): FastDecoder {
  return (r, end, present) => {
    let seconds: number | bigint | undefined;
    let nanos = 0;
    let any = false;
    while (r.pos < end) {
      const tag = readUint32(r, end);
      if (tag === 8) seconds = readInt64(r, end);
      else if (tag === 16) nanos = readUint32(r, end) | 0;
      else if (tag >>> 3 <= 2) fastPathFail('time field');
      else {
        skipField(r, tag & 7, end);
        continue;
      }
      any = true;
    }
    if (!present || !any) return null;
    const s = seconds === undefined ? 0 : Number(seconds);
    if (s === GO_ZERO_TIME_SECONDS && (!micro || nanos === 0)) return null;
    return formatTime(s, micro ? nanos : 0, micro);
  };
}

const decodeQuantity: FastDecoder = (r, end) => {
  let text = '';
  while (r.pos < end) {
    const tag = readUint32(r, end);
    if (tag === 10) text = readString(r, readLengthEnd(r, end));
    else if (tag >>> 3 <= 1) fastPathFail('quantity field');
    else skipField(r, tag & 7, end);
  }
  return text || '0';
};

const decodeIntOrString: FastDecoder = (r, end) => {
  let type: number | bigint = 0;
  let intVal: number | undefined;
  let strVal: string | undefined;
  while (r.pos < end) {
    const tag = readUint32(r, end);
    if (tag === 8) type = readInt64(r, end);
    else if (tag === 16) intVal = readUint32(r, end) | 0;
    else if (tag === 26) strVal = readString(r, readLengthEnd(r, end));
    else if (tag >>> 3 <= 3) fastPathFail('intOrString field');
    else skipField(r, tag & 7, end);
  }
  return Number(type) === 1 ? strVal ?? '' : intVal ?? 0;
};

const decodeRawJson: FastDecoder = (r, end) => {
  let s = -1;
  let e = -1;
  while (r.pos < end) {
    const tag = readUint32(r, end);
    if (tag === 10) {
      e = readLengthEnd(r, end);
      s = r.pos;
      r.pos = e;
    } else if (tag >>> 3 <= 1) fastPathFail('raw field');
    else skipField(r, tag & 7, end);
  }
  if (s < 0 || e === s) return null;
  const buf = r.buf;
  if (e - s >= 4 && buf[s] === MAGIC0 && buf[s + 1] === 0x38 && buf[s + 2] === 0x73 && buf[s + 3] === 0) return r.decodeEnvelope(buf.subarray(s, e));
  try {
    return JSON.parse((buf as NodeBuffer).utf8Slice(s, e)) as JsonValue;
  } catch {
    return fastPathFail('embedded JSON');
  }
};

/** Reads a special message's fields as the reference walk's RawFields (scalars decoded, messages as bytes). */
function readRawFields(spec: MessageSpec, r: FastReader, end: number): Map<number, unknown[]> {
  const out = new Map<number, unknown[]>();
  while (r.pos < end) {
    const tag = readUint32(r, end);
    const number = tag >>> 3;
    const field = spec.byNumber.get(number);
    if (number === 0) fastPathFail('field number 0');
    if (!field) {
      skipField(r, tag & 7, end);
      continue;
    }
    let list = out.get(number);
    if (!list) out.set(number, (list = []));
    const wt = tag & 7;
    if (field.message || field.scalar === 'string') {
      if (wt !== 2) fastPathFail('wire type');
      const e = readLengthEnd(r, end);
      if (field.message) {
        list.push(r.buf.subarray(r.pos, e));
        r.pos = e;
      } else list.push(readString(r, e));
    } else if (field.scalar === 'bool' && wt === 0) list.push(readUint32(r, end) !== 0);
    else if (field.scalar === 'int64' && wt === 0) list.push(readInt64(r, end));
    else fastPathFail('special field type');
  }
  return out;
}

function decodeViaRawFields(spec: MessageSpec, lookup: FastLookup): FastDecoder {
  return (r, end, present) => {
    const fields = readRawFields(spec, r, end);
    return decodeSpecial(spec, fields as RawFields, present, {
      decodeMessage: (fullName, bytes) => {
        const sub = new FastReader(bytes as Buffer, r.nodeBuffer, r.bigints, r.decodeEnvelope);
        sub.depth = r.depth;
        return lookup.decoder(fullName).fn(sub, bytes.length, true);
      },
      decodeEnvelope: r.decodeEnvelope,
    });
  };
}

/** The compiled decoder of a special message. */
export function specialDecoder(spec: MessageSpec, lookup: FastLookup): FastDecoder {
  switch (spec.special) {
    case 'time':
      return decodeTime(false);
    case 'microTime':
      return decodeTime(true);
    case 'quantity':
      return decodeQuantity;
    case 'intOrString':
      return decodeIntOrString;
    case 'rawJson':
      return decodeRawJson;
    default:
      return decodeViaRawFields(spec, lookup);
  }
}

const invalid = (what: string): never => {
  throw new FastPathError(what);
};

function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function writeStrings(w: FastWriter, tag: number, list: readonly JsonValue[]): void {
  for (const item of list) {
    if (typeof item !== 'string') invalid('string item');
    w.byte(tag);
    w.string(item as string);
  }
}

/** The compiled encoder of a special message (the tag and length are the caller's). */
export function specialEncoder(spec: MessageSpec, lookup: FastLookup): FastEncoder {
  const messageOf = (n: number) => lookup.encoder(spec.byNumber.get(n)?.message ?? '');
  const nested = (w: FastWriter, tag: number, encoder: { fn: FastEncoder }, value: JsonValue) => {
    w.byte(tag);
    const at = w.begin();
    encoder.fn(w, value);
    w.end(at);
  };
  switch (spec.special) {
    case 'time':
    case 'microTime': {
      const micro = spec.special === 'microTime';
      return (w, value) => {
        if (value === undefined || value === null) return;
        if (typeof value !== 'string') invalid('time');
        const { seconds, nanos } = parseTime(value as string);
        w.byte(8);
        w.int64(seconds);
        w.byte(16);
        w.int32(micro ? Math.floor(nanos / 1000) * 1000 : 0);
      };
    }
    case 'duration':
      return (w, value) => {
        const isNull = value === undefined || value === null;
        if (!isNull && typeof value !== 'string') invalid('duration');
        w.byte(8);
        const nanos = isNull ? 0n : parseGoDuration(value as string, '');
        if (nanos < -(2n ** 63n) || nanos >= 2n ** 63n) invalid('duration range');
        if (nanos >= BigInt(Number.MIN_SAFE_INTEGER) && nanos <= BigInt(Number.MAX_SAFE_INTEGER)) w.int64(Number(nanos));
        else w.bigInt64(nanos);
      };
    case 'quantity':
      return (w, value) => {
        let text: string;
        if (value === undefined || value === null) text = '0';
        else if (typeof value === 'string') text = value;
        else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
        else return invalid('quantity');
        w.byte(10);
        w.string(text);
      };
    case 'intOrString':
      return (w, value) => {
        const isString = typeof value === 'string';
        const isNull = value === undefined || value === null;
        if (!isNull && !isString && typeof value !== 'number') invalid('intOrString');
        if (!isNull && !isString && (!Number.isInteger(value) || (value as number) < -(2 ** 31) || (value as number) > 2 ** 31 - 1)) invalid('int32');
        w.byte(8);
        w.uint32(isString ? 1 : 0);
        w.byte(16);
        w.int32(isString || isNull ? 0 : (value as number));
        w.byte(26);
        w.string(isString ? (value as string) : '');
      };
    case 'rawJson':
      return (w, value) => {
        if (value === undefined || value === null) return;
        w.byte(10);
        w.string(compactJson(value));
      };
    case 'schemaOrBool':
      return (w, value) => {
        const isNull = value === undefined || value === null;
        const isBool = typeof value === 'boolean';
        if (!isNull && !isBool && !isObject(value)) invalid('schemaOrBool');
        w.byte(8);
        w.byte((isBool ? value : !isNull) ? 1 : 0);
        if (!isNull && !isBool) nested(w, 18, messageOf(2), value!);
      };
    case 'schemaOrArray':
      return (w, value) => {
        if (value === undefined || value === null) return;
        if (Array.isArray(value)) for (const item of value) nested(w, 18, messageOf(2), item);
        else if (isObject(value)) nested(w, 10, messageOf(1), value);
        else invalid('schemaOrArray');
      };
    case 'schemaOrStringArray':
      return (w, value) => {
        if (value === undefined || value === null) return;
        if (Array.isArray(value)) writeStrings(w, 18, value);
        else if (isObject(value)) nested(w, 10, messageOf(1), value);
        else invalid('schemaOrStringArray');
      };
    case 'stringList':
      return (w, value) => {
        if (value === undefined || value === null) return;
        if (!Array.isArray(value)) invalid('stringList');
        writeStrings(w, 10, value as JsonValue[]);
      };
    default:
      throw new Error(`specialEncoder: ${spec.fullName} is not special`);
  }
}

/** Sorts map entries by code point when they are not already in that order (Go's map key order). */
export function sortedEntries(entries: [string, JsonValue][]): [string, JsonValue][] {
  for (let i = 1; i < entries.length; i++) {
    if (compareCodePoints(entries[i - 1]![0], entries[i]![0]) > 0) return entries.sort((a, b) => compareCodePoints(a[0], b[0]));
  }
  return entries;
}
