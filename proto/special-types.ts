/**
 * Messages whose JSON form kube's Go code writes by hand (MarshalJSON/UnmarshalJSON), converted
 * both ways exactly as kube does: Time, MicroTime, Duration, Quantity, IntOrString, RawExtension /
 * FieldsV1 / apiextensions JSON (embedded JSON in bytes), the JSONSchemaPropsOr* unions, and Go
 * named string slices (ExtraValue, Verbs). The generic walkers in decode.ts and encode.ts call in
 * here for any message whose spec has a `special` kind.
 */
import { ProtobufError } from './errors.js';
import { formatGoDuration, formatRfc3339, GO_ZERO_TIME_SECONDS, parseGoDuration, parseRfc3339 } from './go-time.js';
import type { JsonValue, MessageSpec } from './types.js';
import { WireType, writeScalar, writeTag, type Writer } from './wire.js';

/** A message's fields as read off the wire: scalars decoded, message fields as their bytes. */
export type RawFields = ReadonlyMap<number, readonly unknown[]>;

/** What special decoders need from the generic decoder. */
export interface SpecialDecodeHelpers {
  /** Decodes a nested message to JSON. */
  decodeMessage(fullName: string, bytes: Uint8Array): JsonValue;
  /** Decodes a nested `k8s\0` envelope (an object embedded as Protobuf in a RawExtension). */
  decodeEnvelope(bytes: Uint8Array): JsonValue;
}

/** What special encoders need from the generic encoder. */
export interface SpecialEncodeHelpers {
  /** Writes a nested message (tag, length, body). */
  writeMessageField(w: Writer, number: number, fullName: string, value: JsonValue | undefined, path: string): void;
}

const MAGIC = [0x6b, 0x38, 0x73, 0x00];

const last = <T>(values: readonly unknown[] | undefined): T | undefined => (values && values.length > 0 ? (values[values.length - 1] as T) : undefined);

function toBigInt(v: unknown): bigint {
  return typeof v === 'bigint' ? v : BigInt(Math.trunc(Number(v ?? 0)));
}

function concat(chunks: readonly unknown[]): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  return Buffer.concat(chunks as Uint8Array[]);
}

/** Parses bytes that kube keeps as raw embedded JSON (or, inside watch events, a nested Protobuf envelope). */
function decodeRawJson(raw: Uint8Array | undefined, helpers: SpecialDecodeHelpers): JsonValue {
  if (raw === undefined || raw.length === 0) return null;
  if (raw.length >= 4 && MAGIC.every((b, i) => raw[i] === b)) return helpers.decodeEnvelope(raw);
  const text = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8');
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    throw new ProtobufError('Malformed', 'embedded raw object is neither JSON nor a k8s protobuf envelope');
  }
}

/** Decodes a special message from its wire fields. */
export function decodeSpecial(spec: MessageSpec, fields: RawFields, present: boolean, helpers: SpecialDecodeHelpers): JsonValue {
  const messageOf = (n: number) => spec.byNumber.get(n)?.message ?? '';
  switch (spec.special) {
    case 'time':
    case 'microTime': {
      if (!present || fields.size === 0) return null; // kube reads an empty Time as the zero time
      const seconds = Number(toBigInt(last(fields.get(1))));
      const nanos = Number(last(fields.get(2)) ?? 0);
      // Time keeps whole seconds only (kube drops nanos on unmarshal); MicroTime keeps them.
      if (seconds === GO_ZERO_TIME_SECONDS && (spec.special === 'time' || nanos === 0)) return null;
      return formatRfc3339(seconds, spec.special === 'time' ? 0 : nanos, spec.special === 'microTime');
    }
    case 'duration':
      return formatGoDuration(toBigInt(last(fields.get(1))));
    case 'quantity':
      return last<string>(fields.get(1)) || '0';
    case 'intOrString':
      return Number(last(fields.get(1)) ?? 0) === 1 ? last<string>(fields.get(3)) ?? '' : last<number>(fields.get(2)) ?? 0;
    case 'rawJson':
      return decodeRawJson(last<Uint8Array>(fields.get(1)), helpers);
    case 'schemaOrBool': {
      const schema = fields.get(2);
      if (schema?.length) return helpers.decodeMessage(messageOf(2), concat(schema));
      return last<boolean>(fields.get(1)) ?? false;
    }
    case 'schemaOrArray': {
      const list = fields.get(2);
      if (list?.length) return list.map((b) => helpers.decodeMessage(messageOf(2), b as Uint8Array));
      const schema = fields.get(1);
      return schema?.length ? helpers.decodeMessage(messageOf(1), concat(schema)) : null;
    }
    case 'schemaOrStringArray': {
      const list = fields.get(2);
      if (list?.length) return [...(list as string[])];
      const schema = fields.get(1);
      return schema?.length ? helpers.decodeMessage(messageOf(1), concat(schema)) : null;
    }
    case 'stringList': {
      const items = fields.get(1);
      return items?.length ? [...(items as string[])] : null;
    }
    case '':
      throw new Error(`decodeSpecial: ${spec.fullName} is not special`);
  }
}

function expectObject(value: JsonValue, what: string, path: string): { [key: string]: JsonValue } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ProtobufError('InvalidValue', `expected ${what}`, path);
  }
  return value;
}

/**
 * Writes the body of a special message for a JSON value (`undefined`/null: the Go zero value).
 * The caller has already written the tag and opened the length-delimited body.
 */
export function encodeSpecial(w: Writer, spec: MessageSpec, value: JsonValue | undefined, helpers: SpecialEncodeHelpers, path: string): void {
  const messageOf = (n: number) => spec.byNumber.get(n)?.message ?? '';
  const isNull = value === undefined || value === null;
  switch (spec.special) {
    case 'time':
    case 'microTime': {
      if (isNull) return; // the zero time is an empty message
      if (typeof value !== 'string') throw new ProtobufError('InvalidValue', 'expected an RFC 3339 time string', path);
      const { seconds, nanos } = parseRfc3339(value, path);
      writeTag(w, 1, WireType.varint);
      writeScalar(w, 'int64', seconds, path);
      writeTag(w, 2, WireType.varint);
      writeScalar(w, 'int32', spec.special === 'microTime' ? Math.floor(nanos / 1000) * 1000 : 0, path);
      return;
    }
    case 'duration': {
      if (!isNull && typeof value !== 'string') throw new ProtobufError('InvalidValue', 'expected a duration string', path);
      writeTag(w, 1, WireType.varint);
      writeScalar(w, 'int64', isNull ? 0 : parseGoDuration(value, path), path);
      return;
    }
    case 'quantity': {
      let text: string;
      if (isNull) text = '0';
      else if (typeof value === 'string') text = value;
      else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
      else throw new ProtobufError('InvalidValue', 'expected a quantity string', path);
      writeTag(w, 1, WireType.bytes);
      w.string(text);
      return;
    }
    case 'intOrString': {
      const isString = typeof value === 'string';
      if (!isNull && !isString && typeof value !== 'number') throw new ProtobufError('InvalidValue', 'expected an integer or a string', path);
      writeTag(w, 1, WireType.varint);
      w.int64(isString ? 1 : 0);
      writeTag(w, 2, WireType.varint);
      writeScalar(w, 'int32', isString || isNull ? 0 : value, path);
      writeTag(w, 3, WireType.bytes);
      w.string(isString ? value : '');
      return;
    }
    case 'rawJson': {
      if (isNull) return; // Raw nil
      writeTag(w, 1, WireType.bytes);
      w.bytes(Buffer.from(stringifyJson(value), 'utf8'));
      return;
    }
    case 'schemaOrBool': {
      const isBool = typeof value === 'boolean';
      if (!isNull && !isBool) expectObject(value, 'a boolean or a schema object', path);
      writeTag(w, 1, WireType.varint);
      w.bool(isBool ? value : !isNull);
      if (!isNull && !isBool) helpers.writeMessageField(w, 2, messageOf(2), value, path);
      return;
    }
    case 'schemaOrArray': {
      if (isNull) return;
      if (Array.isArray(value)) {
        value.forEach((item, i) => helpers.writeMessageField(w, 2, messageOf(2), item, `${path}[${i}]`));
      } else helpers.writeMessageField(w, 1, messageOf(1), expectObject(value, 'a schema or an array of schemas', path), path);
      return;
    }
    case 'schemaOrStringArray': {
      if (isNull) return;
      if (Array.isArray(value)) {
        value.forEach((item, i) => {
          writeTag(w, 2, WireType.bytes);
          writeScalar(w, 'string', item, `${path}[${i}]`);
        });
      } else helpers.writeMessageField(w, 1, messageOf(1), expectObject(value, 'a schema or an array of strings', path), path);
      return;
    }
    case 'stringList': {
      if (isNull) return;
      if (!Array.isArray(value)) throw new ProtobufError('InvalidValue', 'expected an array of strings', path);
      value.forEach((item, i) => {
        writeTag(w, 1, WireType.bytes);
        writeScalar(w, 'string', item, `${path}[${i}]`);
      });
      return;
    }
    case '':
      throw new Error(`encodeSpecial: ${spec.fullName} is not special`);
  }
}

/** Compact JSON text of a value, writing bigint (int64 beyond 2^53) with its exact digits. */
export function stringifyJson(value: JsonValue): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map((v) => stringifyJson(v)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value)) if (v !== undefined) parts.push(`${JSON.stringify(k)}:${stringifyJson(v)}`);
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value);
}
