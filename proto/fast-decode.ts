/**
 * Compiled decoders: for each message, on first use, one function generated (new Function) from
 * its field table that reads the wire fields into locals with a switch on the tag and then builds
 * the JSON object in Go declaration order with the same presence rules as decode.ts. Nested
 * messages are decoded in place from offsets into one Buffer. Anything decode.ts would treat as an
 * error or an unusual encoding (merged repeats of a message field, packed scalars, wrong wire
 * types) throws FastPathError, and codec.ts decodes that input with the reference walk instead.
 */
import * as reader from './fast-reader.js';
import { sortedEntries, specialDecoder, type FastDecoder, type FastLookup } from './fast-special.js';
import { messageSpec } from './registry.js';
import type { FieldSpec, JsonObject, JsonValue, MessageSpec, ScalarType } from './types.js';
import { setOwnKey } from '../internal/collections/own-key.js';

const MAX_DEPTH = 500;

/** Wire type of each scalar the API uses; others are left to the reference walk. */
const WIRE: Partial<Record<ScalarType, number>> = { string: 2, bytes: 2, bool: 0, int32: 0, int64: 0, double: 1 };

/** Expression reading one scalar value of `type` (JSON form: bytes as base64) at r.pos, the message ending at `end`. */
function readExpr(type: ScalarType): string {
  switch (type) {
    case 'string':
      return 'h.readString(r, h.readLengthEnd(r, end))';
    case 'bytes':
      return 'h.readBase64(r, h.readLengthEnd(r, end))';
    case 'bool':
      return 'h.readUint32(r, end) !== 0';
    case 'int32':
      return 'h.readUint32(r, end) | 0';
    case 'int64':
      return 'h.readInt64(r, end)';
    case 'double':
      return 'h.readDouble(r, end)';
    default:
      throw new Error(`no fast reader for ${type}`);
  }
}

/** The JSON zero of a scalar (bytes: the base64 of no bytes). */
function zeroJson(type: ScalarType): string {
  return type === 'string' || type === 'bytes' ? "''" : type === 'bool' ? 'false' : '0';
}

const key = (name: string) => JSON.stringify(name);

/** Generates the source of one message's decoder; `c<i>` are the nested messages' decoder cells, numbered by cellIndex. */
function generate(spec: MessageSpec, cellIndex: (fullName: string) => number): string {
  const decl: string[] = [];
  const cases: string[] = [];
  const build: string[] = [];
  const known: number[] = [];
  const cell = (f: FieldSpec) => `c${cellIndex(f.message!)}`;
  spec.fields.forEach((f, k) => {
    known.push(f.number);
    const v = `v${k}`;
    const name = key(f.jsonName);
    if (f.map) {
      decl.push(`let ${v};`);
      const valueExpr = f.message
        ? `{ const ve = h.readLengthEnd(r, ee); val = ${cell(f)}.fn(r, ve, true); r.pos = ve; }`
        : `val = ${readExpr(f.scalar!).replace(/\bend\b/g, 'ee')};`;
      const valueTag = f.message ? 18 : (2 << 3) | WIRE[f.scalar!]!;
      const zero = f.message ? `(r.pos = 0, ${cell(f)}.fn(r, 0, true))` : zeroJson(f.scalar!);
      cases.push(`case ${(f.number << 3) | 2}: { const ee = h.readLengthEnd(r, end); let k = '', val;
        while (r.pos < ee) { const t = h.readUint32(r, ee);
          if (t === 10) k = h.readString(r, h.readLengthEnd(r, ee));
          else if (t === ${valueTag}) ${valueExpr}
          else h.skipField(r, t & 7, ee); }
        r.pos = ee; if (val === undefined) { const p = r.pos; val = ${zero}; r.pos = p; }
        (${v} ??= []).push([k, val]); break; }`);
      build.push(`if (${v} === undefined) { ${f.omitEmpty ? '' : `out[${name}] = null;`} } else out[${name}] = h.mapObject(${v});`);
      return;
    }
    if (f.message) {
      if (f.repeated) {
        decl.push(`let ${v};`);
        cases.push(`case ${(f.number << 3) | 2}: { const e = h.readLengthEnd(r, end); (${v} ??= []).push(${cell(f)}.fn(r, e, true)); r.pos = e; break; }`);
        build.push(`if (${v} === undefined) { ${f.omitEmpty ? '' : `out[${name}] = null;`} } else out[${name}] = ${v};`);
        return;
      }
      decl.push(`let s${k} = -1, e${k} = 0;`);
      cases.push(`case ${(f.number << 3) | 2}: { const e = h.readLengthEnd(r, end); if (s${k} >= 0) h.fastPathFail('repeated message field'); s${k} = r.pos; e${k} = e; r.pos = e; break; }`);
      const sub = messageSpec(f.message);
      if (f.inline) {
        if (sub.special) throw new Error(`embedded special message ${sub.fullName}`);
        build.push(`if (s${k} < 0) { r.pos = 0; ${cell(f)}.fn(r, 0, true, out); } else { r.pos = s${k}; ${cell(f)}.fn(r, e${k}, true, out); }`);
        return;
      }
      const dropNull = sub.special === 'stringList' && f.omitEmpty;
      const assign = dropNull ? `if (val !== null) out[${name}] = val;` : `out[${name}] = val;`;
      const absent = f.value ? `{ r.pos = 0; const val = ${cell(f)}.fn(r, 0, false); ${assign} }` : '{}';
      build.push(`if (s${k} < 0) ${absent} else { r.pos = s${k}; const val = ${cell(f)}.fn(r, e${k}, true); ${assign} }`);
      return;
    }
    const type = f.scalar!;
    const wt = WIRE[type];
    if (wt === undefined) throw new Error(`no fast reader for ${type}`);
    decl.push(`let ${v};`);
    if (f.repeated) {
      cases.push(`case ${(f.number << 3) | wt}: (${v} ??= []).push(${readExpr(type)}); break;`);
      build.push(`if (${v} === undefined) { ${f.omitEmpty ? '' : `out[${name}] = null;`} } else out[${name}] = ${v};`);
      return;
    }
    cases.push(`case ${(f.number << 3) | wt}: ${v} = ${readExpr(type)}; break;`);
    const absent = f.value && !f.omitEmpty ? `out[${name}] = ${zeroJson(type)};` : '';
    // decode.ts: a zero is dropped for omitempty non-pointers that are Go values, or strings/bytes.
    const numberOrBool = type !== 'string' && type !== 'bytes';
    const dropZero = !f.pointer && f.omitEmpty && (f.value || !numberOrBool);
    const isZero = type === 'bool' ? `${v} === false` : numberOrBool ? `${v} === 0` : `${v} === ''`;
    build.push(`if (${v} === undefined) { ${absent} } else ${dropZero ? `if (!(${isZero})) ` : ''}out[${name}] = ${v};`);
  });
  return `const KNOWN = new Set(${JSON.stringify(known)});
return function decode(r, end, present, out) {
  if (++r.depth > ${MAX_DEPTH}) h.fastPathFail('depth');
  ${decl.join('\n  ')}
  while (r.pos < end) {
    const tag = h.readUint32(r, end);
    switch (tag) {
      ${cases.join('\n      ')}
      default: {
        const n = tag >>> 3;
        if (n === 0 || KNOWN.has(n)) h.fastPathFail('field ' + n + ' wire type ' + (tag & 7));
        h.skipField(r, tag & 7, end);
      }
    }
  }
  if (out === undefined) out = {};
  ${build.join('\n  ')}
  r.depth--;
  return out;
};`;
}

function readBase64(r: reader.FastReader, e: number): string {
  const text = r.buf.toString('base64', r.pos, e);
  r.pos = e;
  return text;
}

/** A map field's entries ([key, JSON value] in wire order) as a JSON object with keys in Go's order. */
function mapObject(entries: [string, JsonValue][]): JsonObject {
  const obj: JsonObject = {};
  for (const [k, v] of sortedEntries(entries)) setOwnKey(obj, k, v);
  return obj;
}

const helpers = { ...reader, readBase64, mapObject };

/** Compiles the decoder of one message; `lookup` gives (lazily compiled) nested decoders. */
export function compileDecoder(spec: MessageSpec, lookup: FastLookup): FastDecoder {
  if (spec.special) return specialDecoder(spec, lookup);
  const names: string[] = [];
  const index = (fullName: string) => {
    let i = names.indexOf(fullName);
    if (i < 0) i = names.push(fullName) - 1;
    return i;
  };
  const source = generate(spec, index);
  const cells = names.map((name) => lookup.decoder(name));
  const cellDecl = cells.length ? `const ${cells.map((_, i) => `c${i} = cells[${i}]`).join(', ')};\n` : '';
  // Generated from the field table at run time so each message gets straight-line code with constant tags and property names.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('h', 'cells', cellDecl + source)(helpers, cells) as FastDecoder;
}
