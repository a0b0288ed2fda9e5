/**
 * Compiled encoders: for each message, on first use, one function generated (new Function) from
 * its field table that writes the fields in ascending number order with constant tag bytes and
 * property names, under encode.ts's presence rules (Go values always, zero when unset; pointers
 * and unknown optionals only when set; unpacked repeated scalars; map entries in code-point key
 * order). Values the reference would reject throw FastPathError, and codec.ts re-encodes with the
 * reference walk to raise its error with the field path.
 */
import { FastPathError, type FastWriter } from './fast-writer.js';
import { sortedEntries, specialEncoder, type FastEncoder, type FastLookup } from './fast-special.js';
import type { FieldSpec, JsonObject, JsonValue, MessageSpec, ScalarType } from './types.js';

const MAX_DEPTH = 500;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const WIRE: Partial<Record<ScalarType, number>> = { string: 2, bytes: 2, bool: 0, int32: 0, int64: 0, double: 1 };

const fail = (what: string): never => {
  throw new FastPathError(what);
};

function writeInt64(w: FastWriter, v: unknown): void {
  if (typeof v === 'number' && Number.isSafeInteger(v)) {
    w.int64(v);
    return;
  }
  let big: bigint;
  if (typeof v === 'bigint') big = v;
  else if (typeof v === 'number' && Number.isInteger(v)) big = BigInt(v);
  else if (typeof v === 'string' && /^-?\d+$/.test(v)) big = BigInt(v);
  else return fail('int64');
  if (big < INT64_MIN || big > INT64_MAX) fail('int64 range');
  w.bigInt64(big);
}

function writeInt32(w: FastWriter, v: unknown): void {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < -2147483648 || v > 2147483647) fail('int32');
  w.int32(v as number);
}

function writeBase64(w: FastWriter, v: unknown): void {
  if (typeof v !== 'string') return fail('bytes');
  const text = v.replace(/[\r\n]/g, '');
  if (!BASE64.test(text)) fail('base64');
  w.bytes(Buffer.from(text, 'base64'));
}

/** A map value as an object (undefined/null: none), its own keys in code-point order. */
function mapKeys(value: JsonValue): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('map');
  const keys = Object.keys(value);
  if (keys.length < 2) return keys;
  return sortedEntries(keys.map((k) => [k, null] as [string, JsonValue])).map((e) => e[0]);
}

const EMPTY: JsonObject = Object.freeze({}) as JsonObject;

const helpers = { fail, writeInt64, writeInt32, writeBase64, mapKeys, EMPTY };

/** Statements writing a tag (its varint bytes as constants). */
function tag(number: number, wt: number): string {
  const t = (number << 3) | wt;
  if (t < 128) return `w.byte(${t});`;
  if (t < 16384) return `w.byte2(${(t & 127) | 128}, ${t >>> 7});`;
  throw new Error(`field number ${number} too large for the fast encoder`);
}

/** Statements writing scalar `v` of `type` (checked as encode.ts checks it), tag first. */
function writeScalar(number: number, type: ScalarType, v: string): string {
  const wt = WIRE[type];
  if (wt === undefined) throw new Error(`no fast writer for ${type}`);
  const t = tag(number, wt);
  switch (type) {
    case 'string':
      return `if (typeof ${v} !== 'string') h.fail('string'); ${t} w.string(${v});`;
    case 'bool':
      return `if (typeof ${v} !== 'boolean') h.fail('bool'); ${t} w.byte(${v} ? 1 : 0);`;
    case 'int32':
      return `${t} h.writeInt32(w, ${v});`;
    case 'int64':
      return `${t} h.writeInt64(w, ${v});`;
    case 'double':
      return `if (typeof ${v} !== 'number') h.fail('double'); ${t} w.double(${v});`;
    case 'bytes':
      return `${t} h.writeBase64(w, ${v});`;
    default:
      throw new Error(`no fast writer for ${type}`);
  }
}

/** Statements writing the zero of a scalar (Go's non-pointer fields and null items). */
function writeZero(number: number, type: ScalarType): string {
  const t = tag(number, WIRE[type]!);
  if (type === 'double') return `${t} w.double(0);`;
  return `${t} w.byte(0);`;
}

const nested = (number: number, cell: string, value: string) => `${tag(number, 2)} { const at = w.begin(); ${cell}.fn(w, ${value}); w.end(at); }`;

function generateField(f: FieldSpec, cell: (f: FieldSpec) => string): string {
  if (f.inline) return nested(f.number, cell(f), 'obj');
  const name = JSON.stringify(f.jsonName);
  // Object.hasOwn (as encode.ts reads every field) only for names Object.prototype has: plain JSON objects inherit nothing else.
  const read = f.jsonName in Object.prototype ? `(Object.hasOwn(obj, ${name}) ? obj[${name}] : undefined)` : `obj[${name}]`;
  const head = `v = ${read};`;
  if (f.map) {
    let value: string;
    if (f.message) value = nested(2, cell(f), 'x');
    else if (f.scalar === 'bytes') value = `if (x !== null) { ${writeScalar(2, 'bytes', 'x')} }`;
    else value = `if (x !== null) { ${writeScalar(2, f.scalar!, 'x')} } else { ${writeZero(2, f.scalar!)} }`;
    return `${head} if (v !== undefined && v !== null) { for (const k of h.mapKeys(v)) { const x = v[k];
      ${tag(f.number, 2)} const at = w.begin(); w.byte(10); w.string(k); ${value} w.end(at); } }`;
  }
  if (f.repeated) {
    let item: string;
    if (f.message) item = nested(f.number, cell(f), 'x');
    else item = `if (x === null) { ${writeZero(f.number, f.scalar!)} } else { ${writeScalar(f.number, f.scalar!, 'x')} }`;
    return `${head} if (v !== undefined && v !== null) { if (!Array.isArray(v)) h.fail('array'); for (let i = 0; i < v.length; i++) { const x = v[i]; if (x === undefined && !(i in v)) continue; ${item} } }`;
  }
  if (f.scalar) {
    const zero = f.value && f.scalar !== 'bytes' ? ` else { ${writeZero(f.number, f.scalar)} }` : '';
    return `${head} if (v !== undefined && v !== null) { ${writeScalar(f.number, f.scalar, 'v')} }${zero}`;
  }
  if (f.value) return `${head} ${nested(f.number, cell(f), 'v')}`;
  return `${head} if (v !== undefined && v !== null) { ${nested(f.number, cell(f), 'v')} }`;
}

/** Compiles the encoder of one message; `lookup` gives (lazily compiled) nested encoders. */
export function compileEncoder(spec: MessageSpec, lookup: FastLookup): FastEncoder {
  if (spec.special) return specialEncoder(spec, lookup);
  const names: string[] = [];
  const cell = (f: FieldSpec) => {
    let i = names.indexOf(f.message!);
    if (i < 0) i = names.push(f.message!) - 1;
    return `c${i}`;
  };
  const body = spec.wireOrder.map((f) => generateField(f, cell)).join('\n  ');
  const cells = names.map((name) => lookup.encoder(name));
  const cellDecl = cells.length ? `const ${cells.map((_, i) => `c${i} = cells[${i}]`).join(', ')};\n` : '';
  const source = `${cellDecl}return function encode(w, value) {
  if (++w.depth > ${MAX_DEPTH}) h.fail('depth');
  let obj;
  if (value === undefined || value === null) obj = h.EMPTY;
  else if (typeof value !== 'object' || Array.isArray(value)) h.fail('object');
  else obj = value;
  let v;
  ${body}
  w.depth--;
};`;
  // Generated from the field table at run time so each message gets straight-line code with constant tags and property names.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('h', 'cells', source)(helpers, cells) as FastEncoder;
}
