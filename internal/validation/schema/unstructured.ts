/**
 * checkFromUnstructured: what apimachinery's DefaultUnstructuredConverter.FromUnstructuredWithValidation
 * makes of an object given as map[string]interface{} (the result of a strategic merge patch), walked
 * against the generated schema. It differs from the JSON decoder (decode.ts) in ways a client sees:
 *  - its errors are its own texts, without struct field context, and the first one ends the walk:
 *    `cannot convert float64 to int32` (a number with a fraction into an integer), `cannot convert
 *    int64 to string`, `unrecognized type: int32` (a string, bool, map or slice into a scalar),
 *    `cannot restore struct from: string`, `cannot restore map from string`, `cannot restore slice
 *    from map`; types with their own UnmarshalJSON get the value re-encoded and say what it says;
 *  - a whole float64 goes into an integer field (1e3 is 1000), an int64 into any integer or float
 *    field, without range checks;
 *  - unknown fields are reported sorted by their message, as it sorts them.
 * Values it was given: strings, bools, int64 (integral numbers not written with a fraction or an
 * exponent: `floats` names those by path), float64, nil, slices and maps.
 */
import { customDecodeError } from './decode.js';
import { base64DecodeError } from './go-base64.js';
import { kindNode } from './schema-index.js';
import type { GVK, SchemaNode } from './types.js';
import { unknownFieldMessage } from './unknown-fields.js';

/** What the converter made of the object. */
export interface UnstructuredCheckResult {
  /** The first conversion error's text, if any. */
  readonly error?: string;
  /** `unknown field "<path>"` messages, sorted as the converter sorts them. */
  readonly unknownFieldMessages: string[];
  /** The JSON paths of the unknown fields (the same fields, in the same order). */
  readonly unknownFields: string[];
}

type SourceKind = 'string' | 'bool' | 'int64' | 'float64' | 'slice' | 'map';

class ConvertError extends Error {}

const intKinds = new Set(['int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8', 'uint16', 'uint32', 'uint64']);

function sourceKind(value: unknown, path: string, floats: ReadonlyMap<string, string> | undefined): SourceKind {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'bigint') return value >= -9223372036854775808n && value <= 9223372036854775807n ? 'int64' : 'float64';
  if (typeof value === 'number') {
    return floats?.has(path) === true || !Number.isInteger(value) || Math.abs(value) >= 9223372036854775808 ? 'float64' : 'int64';
  }
  return Array.isArray(value) ? 'slice' : 'map';
}

/** reflect.Kind of a scalar node's Go type (a named type has its underlying kind). */
function reflectKind(node: SchemaNode): string {
  if (intKinds.has(node.goType) || node.goType === 'float32' || node.goType === 'float64' || node.goType === 'string' || node.goType === 'bool') return node.goType;
  return node.kind;
}

interface Walk {
  readonly floats: ReadonlyMap<string, string> | undefined;
  readonly unknown: string[];
}

function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/** fromUnstructured for the simple kinds: bool, integers, floats, string. */
function convertScalar(node: SchemaNode, value: unknown, path: string, w: Walk): void {
  const dt = reflectKind(node);
  const st = sourceKind(value, path, w.floats);
  const dtInt = intKinds.has(dt);
  const dtFloat = dt === 'float32' || dt === 'float64';
  switch (st) {
    case 'string':
      if (dt === 'string') return;
      break;
    case 'bool':
      if (dt === 'bool') return;
      break;
    case 'int64':
      if (dtInt || dtFloat) return;
      // Go converts an integer to a string (a rune), so it is "convertible" and refused by name.
      if (dt === 'string') throw new ConvertError(`cannot convert int64 to ${node.goType}`);
      break;
    case 'float64':
      if (dtFloat) return;
      if (dtInt) {
        if (Number.isInteger(Number(value))) return;
        throw new ConvertError(`cannot convert float64 to ${node.goType}`);
      }
      break;
    default:
      break;
  }
  throw new ConvertError(`unrecognized type: ${dt}`);
}

function convert(node: SchemaNode, value: unknown, path: string, w: Walk): void {
  if (value === null || value === undefined) return;
  switch (node.kind) {
    case 'any':
      return;
    case 'string':
    case 'bool':
    case 'int32':
    case 'int64':
    case 'float64':
      convertScalar(node, value, path, w);
      return;
    case 'bytes': {
      const st = sourceKind(value, path, w.floats);
      if (st === 'string') {
        const err = base64DecodeError(value as string);
        if (err !== undefined) throw new ConvertError(`error decoding from json: ${err}`);
        return;
      }
      if (st !== 'slice') throw new ConvertError(`cannot restore slice from ${st}`);
      (value as unknown[]).forEach((item, i) => convertScalar({ kind: 'int32', goType: 'uint8' }, item, `${path}[${i}]`, w));
      return;
    }
    case 'struct': {
      const st = sourceKind(value, path, w.floats);
      if (st !== 'map') throw new ConvertError(`cannot restore struct from: ${st}`);
      const obj = value as Record<string, unknown>;
      for (const [name, field] of node.fields) {
        if (Object.prototype.hasOwnProperty.call(obj, name)) convert(field.node, obj[name], childPath(path, name), w);
      }
      for (const key of Object.keys(obj)) if (!node.fields.has(key)) w.unknown.push(childPath(path, key));
      return;
    }
    case 'map': {
      const st = sourceKind(value, path, w.floats);
      if (st !== 'map') throw new ConvertError(`cannot restore map from ${st}`);
      // The converter does not put map keys in the path of what it finds below them.
      const obj = value as Record<string, unknown>;
      for (const key of Object.keys(obj)) convert(node.values, obj[key], path, w);
      return;
    }
    case 'array': {
      const st = sourceKind(value, path, w.floats);
      if (st !== 'slice') throw new ConvertError(`cannot restore slice from ${st}`);
      (value as unknown[]).forEach((item, i) => convert(node.items, item, `${path}[${i}]`, w));
      return;
    }
    default: {
      // A type with its own UnmarshalJSON: the value is re-encoded and handed to it.
      const err = customDecodeError(node, value);
      if (err !== undefined) throw new ConvertError(err);
    }
  }
}

/** Runs the converter's checks for the kind over obj (see above); a kind without a schema passes. */
export function checkFromUnstructured(gvk: GVK, obj: Record<string, unknown>, floats?: ReadonlyMap<string, string>): UnstructuredCheckResult {
  const root = kindNode(gvk);
  if (root === undefined) return { unknownFieldMessages: [], unknownFields: [] };
  const w: Walk = { floats, unknown: [] };
  try {
    convert(root, obj, '', w);
  } catch (err) {
    if (err instanceof ConvertError) return { error: err.message, unknownFieldMessages: [], unknownFields: [] };
    throw err;
  }
  const entries = w.unknown.map((p) => ({ p, m: unknownFieldMessage(p) }));
  entries.sort((a, b) => (a.m < b.m ? -1 : a.m > b.m ? 1 : 0));
  return { unknownFieldMessages: entries.map((e) => e.m), unknownFields: entries.map((e) => e.p) };
}
