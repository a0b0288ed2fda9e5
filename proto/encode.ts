/**
 * JSON form -> Protobuf wire bytes, written the way kube's gogo-protobuf Marshal writes them:
 * fields in ascending number order, Go non-pointer fields always (their zero value when unset),
 * pointers and unknown optional fields only when set, repeated scalars unpacked (one tag per
 * element, proto2), and map entries {key = 1, value = 2} in sorted key order.
 */
import { compareCodePoints } from './decode.js';
import { ProtobufError } from './errors.js';
import { messageSpec } from './registry.js';
import { encodeSpecial, type SpecialEncodeHelpers } from './special-types.js';
import type { FieldSpec, JsonObject, JsonValue, MessageSpec, ScalarType } from './types.js';
import { newWriter, scalarZero, WireType, wireTypeOf, writeScalar, writeTag, type Writer } from './wire.js';

const MAX_DEPTH = 500;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

interface Ctx {
  depth: number;
  readonly helpers: SpecialEncodeHelpers;
}

/** Converts a JSON scalar to what writeScalar takes (bytes: base64 text -> Uint8Array, as Go's encoding/json reads []byte). */
function jsonToScalar(type: ScalarType, value: JsonValue, path: string): unknown {
  if (type !== 'bytes') return value;
  if (typeof value !== 'string') throw new ProtobufError('InvalidValue', 'expected a base64 string', path);
  const text = value.replace(/[\r\n]/g, '');
  if (!BASE64.test(text)) throw new ProtobufError('InvalidValue', 'illegal base64 data', path);
  return Buffer.from(text, 'base64');
}

function writeScalarField(w: Writer, number: number, type: ScalarType, value: unknown, path: string): void {
  writeTag(w, number, wireTypeOf(type));
  writeScalar(w, type, value, path);
}

function writeMessageField(w: Writer, number: number, spec: MessageSpec, value: JsonValue | undefined, path: string, ctx: Ctx): void {
  writeTag(w, number, WireType.bytes);
  w.fork();
  encodeMessageBody(w, spec, value, path, ctx);
  w.ldelim();
}

function asObject(value: JsonValue | undefined, path: string): JsonObject {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ProtobufError('InvalidValue', 'expected an object', path);
  return value as JsonObject;
}

function encodeMessageBody(w: Writer, spec: MessageSpec, value: JsonValue | undefined, path: string, ctx: Ctx): void {
  if (++ctx.depth > MAX_DEPTH) throw new ProtobufError('InvalidValue', `objects nested deeper than ${MAX_DEPTH}`, path);
  try {
    if (spec.special) {
      encodeSpecial(w, spec, value, ctx.helpers, path);
      return;
    }
    const obj = asObject(value, path);
    for (const field of spec.wireOrder) encodeField(w, field, obj, path, ctx);
  } finally {
    ctx.depth--;
  }
}

function encodeField(w: Writer, field: FieldSpec, obj: JsonObject, parentPath: string, ctx: Ctx): void {
  if (field.inline) {
    // A Go-embedded struct: its fields live in the parent's JSON object.
    writeMessageField(w, field.number, messageSpec(field.message!), obj, parentPath, ctx);
    return;
  }
  const path = parentPath ? `${parentPath}.${field.jsonName}` : field.jsonName;
  const value = Object.hasOwn(obj, field.jsonName) ? obj[field.jsonName] : undefined;
  const unset = value === undefined || value === null;
  if (field.map) {
    if (unset) return;
    const entries = Object.entries(asObject(value, path)).sort((a, b) => compareCodePoints(a[0], b[0]));
    for (const [key, v] of entries) {
      const entryPath = `${path}[${JSON.stringify(key)}]`;
      writeTag(w, field.number, WireType.bytes);
      w.fork();
      writeScalarField(w, 1, 'string', key, entryPath);
      if (field.message) writeMessageField(w, 2, messageSpec(field.message), v, entryPath, ctx);
      else if (v !== null) writeScalarField(w, 2, field.scalar!, jsonToScalar(field.scalar!, v!, entryPath), entryPath);
      else if (field.scalar !== 'bytes') writeScalarField(w, 2, field.scalar!, scalarZero(field.scalar!), entryPath); // a nil []byte value is left out, as gogo does
      w.ldelim();
    }
    return;
  }
  if (field.repeated) {
    if (unset) return;
    if (!Array.isArray(value)) throw new ProtobufError('InvalidValue', 'expected an array', path);
    value.forEach((item, i) => {
      const itemPath = `${path}[${i}]`;
      if (field.message) writeMessageField(w, field.number, messageSpec(field.message), item, itemPath, ctx);
      else writeScalarField(w, field.number, field.scalar!, item === null ? scalarZero(field.scalar!) : jsonToScalar(field.scalar!, item, itemPath), itemPath);
    });
    return;
  }
  if (field.scalar) {
    if (!unset) writeScalarField(w, field.number, field.scalar, jsonToScalar(field.scalar, value, path), path);
    else if (field.value && field.scalar !== 'bytes') writeScalarField(w, field.number, field.scalar, scalarZero(field.scalar), path);
    return;
  }
  if (unset && !field.value) return; // nil pointer, or an optional struct of unknown shape
  writeMessageField(w, field.number, messageSpec(field.message!), value, path, ctx);
}

/**
 * Encodes the JSON form of message `messageFullName` (e.g. `k8s.io.api.core.v1.ConfigMap`) into
 * wire bytes. Unknown JSON properties (apiVersion, kind, fields of other versions) are ignored.
 * Pure: does not mutate `obj`. Throws ProtobufError('InvalidValue') when a value does not fit.
 */
export function jsonToProtobuf(messageFullName: string, obj: JsonValue): Uint8Array {
  const spec = messageSpec(messageFullName);
  const ctx: Ctx = {
    depth: 0,
    helpers: {
      writeMessageField: (w, number, fullName, value, path) => writeMessageField(w, number, messageSpec(fullName), value, path, ctx),
    },
  };
  const w = newWriter();
  encodeMessageBody(w, spec, obj, '', ctx);
  return w.finish();
}
