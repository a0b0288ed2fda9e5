/**
 * checkDecode: what kube-apiserver's typed JSON decoding (sigs.k8s.io/json into the Go struct of the
 * kind) makes of an object, computed by walking the object against the generated schema in document
 * order:
 *  - fields the Go struct does not have are dropped and their JSON paths reported (strict decoding's
 *    `spec.template.spec.containers[0].bar`, map keys joined with dots), except under free-form
 *    values (RawExtension, JSON, FieldsV1, preserve-unknown-fields);
 *  - the first value Go cannot store becomes the decode error: type mismatches and number ranges
 *    are saved and decoding goes on, errors of custom decoders (Time, MicroTime, IntOrString,
 *    Quantity, the CRD JSONSchemaPropsOr* types) end it at once and win over a saved one, exactly as
 *    encoding/json's decodeState does.
 * The apiextensions JSONSchemaPropsOr* types decode their contents with the standard library (not
 * strict): unknown fields under them are dropped silently, and a type error inside is reported with
 * the context of the field that holds them.
 */
import { base64DecodeError } from './go-base64.js';
import { type DecodeFailure, type ErrorContext, jsonKind, numberLiteral, renderFailure, typeFailure, withContext } from './go-json-error.js';
import { rfc3339, rfc3339Micro, timeParseError } from './go-time.js';
import { copyJson, isJsonObject } from './json-copy.js';
import { parseQuantityError, quantityText } from './quantity-parse.js';
import { definitionNode, kindNode } from './schema-index.js';
import type { DecodeCheckResult, GVK, SchemaNode, StructNode } from './types.js';
import { setOwnKey } from '../../collections/own-key.js';

const jsonSchemaProps = 'apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps';

/** What the JSONSchemaPropsOr* decoders hand to the standard library for a JSON array. */
let schemaListNode: SchemaNode | undefined;
const stringListNode: SchemaNode = { kind: 'array', goType: '[]string', items: { kind: 'string', goType: 'string' } };

function schemaList(): SchemaNode {
  schemaListNode ??= { kind: 'array', goType: '[]v1.JSONSchemaProps', items: definitionNode(jsonSchemaProps) };
  return schemaListNode;
}

const int32Min = -2147483648;
const int32Max = 2147483647;
const int64Min = -9223372036854775808n;
const int64Max = 9223372036854775807n;

interface DecodeState {
  /** The first error encoding/json saved (decoding went on after it). */
  saved?: DecodeFailure;
  /** The error that ended decoding; once set, no more errors are recorded. */
  fatal?: DecodeFailure;
  /** Strict decoding reports unknown fields; the standard library inside custom decoders does not. */
  readonly strict: boolean;
  readonly unknownFields: string[];
  readonly ctx: ErrorContext;
  /** Numbers written with a fraction or an exponent, by path: strconv.ParseInt refuses them. */
  readonly literals: ReadonlyMap<string, string> | undefined;
}

function newState(strict: boolean, literals: ReadonlyMap<string, string> | undefined): DecodeState {
  return { strict, unknownFields: [], ctx: { struct: undefined, fields: [] }, literals };
}

function save(st: DecodeState, failure: DecodeFailure): void {
  if (st.saved === undefined && st.fatal === undefined) st.saved = failure;
}

function fail(st: DecodeState, failure: DecodeFailure): void {
  if (st.fatal === undefined) st.fatal = failure;
}

function mismatch(st: DecodeState, value: unknown, goType: string): void {
  save(st, typeFailure(jsonKind(value), goType, st.ctx));
}

/** An integer JSON number that fits the Go integer type, per strconv.ParseInt and OverflowInt. */
function fitsInt(value: number | bigint, bits: 32 | 64): boolean {
  if (typeof value === 'bigint') return bits === 32 ? value >= BigInt(int32Min) && value <= BigInt(int32Max) : value >= int64Min && value <= int64Max;
  if (!Number.isInteger(value)) return false;
  if (bits === 32) return value >= int32Min && value <= int32Max;
  // 2^63 is the first double past int64's range.
  return value >= -9223372036854775808 && value < 9223372036854775808;
}

function childOf(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function decodeStruct(node: StructNode, value: Record<string, unknown>, path: string, st: DecodeState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = node.fields.get(key);
    if (field === undefined) {
      if (st.strict) st.unknownFields.push(childOf(path, key));
      continue;
    }
    const outerStruct = st.ctx.struct;
    st.ctx.fields.push(key);
    st.ctx.struct = node.structName;
    out[key] = decodeValue(field.node, value[key], childOf(path, key), st);
    st.ctx.fields.pop();
    st.ctx.struct = outerStruct;
  }
  return out;
}

/** Runs the standard library's decoder (lenient) inside a custom UnmarshalJSON; its error ends the outer decode. */
function decodeNested(node: SchemaNode, value: unknown, path: string, st: DecodeState): unknown {
  const inner = newState(false, st.literals);
  const out = decodeValue(node, value, path, inner);
  const failure = inner.fatal ?? inner.saved;
  if (failure !== undefined) fail(st, withContext(failure, st.ctx));
  return out;
}

function decodeCustom(node: SchemaNode, value: unknown, path: string, st: DecodeState): unknown {
  switch (node.kind) {
    case 'quantity': {
      const err = parseQuantityError(quantityText(value));
      if (err !== undefined) fail(st, { kind: 'text', text: err });
      return copyJson(value);
    }
    case 'time':
    case 'microtime': {
      // metav1.Time first decodes a Go string, then parses it with time.Parse.
      if (typeof value !== 'string') fail(st, typeFailure(jsonKind(value), 'string', st.ctx));
      else {
        const err = timeParseError(value, node.kind === 'time' ? rfc3339 : rfc3339Micro);
        if (err !== undefined) fail(st, { kind: 'text', text: err });
      }
      return copyJson(value);
    }
    case 'intOrString': {
      // intstr decodes anything but a JSON string into its int32.
      if (typeof value === 'number' || typeof value === 'bigint') {
        const literal = st.literals?.get(path);
        if (literal !== undefined || !fitsInt(value, 32)) fail(st, typeFailure(`number ${literal ?? numberLiteral(value)}`, 'int32', st.ctx));
      } else if (typeof value !== 'string') {
        fail(st, typeFailure(jsonKind(value), 'int32', st.ctx));
      }
      return copyJson(value);
    }
    case 'schemaOrBool':
      if (isJsonObject(value)) return decodeNested(definitionNode(jsonSchemaProps), value, path, st);
      if (typeof value !== 'boolean') fail(st, { kind: 'text', text: 'boolean or JSON schema expected' });
      return copyJson(value);
    case 'schemaOrArray':
      if (isJsonObject(value)) return decodeNested(definitionNode(jsonSchemaProps), value, path, st);
      if (Array.isArray(value)) return decodeNested(schemaList(), value, path, st);
      fail(st, { kind: 'text', text: 'array or JSON schema expected' });
      return copyJson(value);
    case 'schemaOrStringArray':
      if (isJsonObject(value)) return decodeNested(definitionNode(jsonSchemaProps), value, path, st);
      if (Array.isArray(value)) return decodeNested(stringListNode, value, path, st);
      // Anything else is ignored by its UnmarshalJSON (and stored as null by kube).
      return copyJson(value);
    default:
      return copyJson(value);
  }
}

function decodeValue(node: SchemaNode, value: unknown, path: string, st: DecodeState): unknown {
  // null leaves pointers, maps and slices nil and everything else untouched: never an error.
  if (value === null || value === undefined) return null;
  switch (node.kind) {
    case 'any':
      return copyJson(value);
    case 'string':
      if (typeof value !== 'string') mismatch(st, value, node.goType);
      return copyJson(value);
    case 'bool':
      if (typeof value !== 'boolean') mismatch(st, value, node.goType);
      return copyJson(value);
    case 'int32':
    case 'int64':
      if (typeof value === 'number' || typeof value === 'bigint') {
        const literal = st.literals?.get(path);
        if (literal !== undefined || !fitsInt(value, node.kind === 'int32' ? 32 : 64)) save(st, typeFailure(`number ${literal ?? numberLiteral(value)}`, node.goType, st.ctx));
      } else {
        mismatch(st, value, node.goType);
      }
      return copyJson(value);
    case 'float64':
      if (typeof value === 'number' && !Number.isFinite(value)) save(st, typeFailure(`number ${String(value)}`, node.goType, st.ctx));
      else if (typeof value !== 'number' && typeof value !== 'bigint') mismatch(st, value, node.goType);
      return copyJson(value);
    case 'bytes':
      if (typeof value === 'string') {
        const err = base64DecodeError(value);
        if (err !== undefined) save(st, { kind: 'text', text: err });
      } else if (Array.isArray(value)) {
        // encoding/json fills a []byte from a JSON array of numbers, element by element.
        for (const item of value) {
          if (item === null || item === undefined) continue;
          if (typeof item === 'number' || typeof item === 'bigint') {
            const ok = typeof item === 'bigint' ? item >= 0n && item <= 255n : Number.isInteger(item) && item >= 0 && item <= 255;
            if (!ok) save(st, typeFailure(`number ${numberLiteral(item)}`, 'uint8', st.ctx));
          } else {
            mismatch(st, item, 'uint8');
          }
        }
      } else {
        mismatch(st, value, node.goType);
      }
      return copyJson(value);
    case 'struct':
      if (!isJsonObject(value)) {
        mismatch(st, value, node.goType);
        return copyJson(value);
      }
      return decodeStruct(node, value, path, st);
    case 'array':
      if (!Array.isArray(value)) {
        mismatch(st, value, node.goType);
        return copyJson(value);
      }
      return value.map((item, i) => decodeValue(node.items, item, `${path}[${i}]`, st));
    case 'map': {
      if (!isJsonObject(value)) {
        mismatch(st, value, node.goType);
        return copyJson(value);
      }
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) setOwnKey(out, key, decodeValue(node.values, value[key], childOf(path, key), st));
      return out;
    }
    default:
      return decodeCustom(node, value, path, st);
  }
}

/**
 * Decodes obj as kube's typed decoder would for the kind: returns a pruned deep copy, the paths of
 * the unknown fields removed (for the fieldValidation directive), and Go's decode error if any.
 * When decodeError is set the request must fail with 400 and the rest of the result is moot.
 * A kind without a schema comes back copied, with nothing reported. literals holds the numbers the
 * JSON text wrote with a fraction or an exponent, by path (StrictJson.numberLiterals): Go refuses
 * them in integer fields whatever their value. Never mutates obj; never throws for any JSON input.
 */
export function checkDecode(gvk: GVK, obj: Record<string, unknown>, literals?: ReadonlyMap<string, string>): DecodeCheckResult {
  const root = kindNode(gvk);
  if (root === undefined) return { object: copyJson(obj) as Record<string, unknown>, unknownFields: [] };
  const st = newState(true, literals);
  const object = decodeStruct(root, obj, '', st);
  const failure = st.fatal ?? st.saved;
  return failure === undefined
    ? { object, unknownFields: st.unknownFields }
    : { object, unknownFields: st.unknownFields, decodeError: renderFailure(failure) };
}

/**
 * The error a type with its own UnmarshalJSON (Quantity, Time, IntOrString, ...) gives for value
 * when handed it alone, as apimachinery's unstructured converter does (json.Marshal of the value,
 * then the type's UnmarshalJSON: no struct field context), or undefined if it decodes.
 */
export function customDecodeError(node: SchemaNode, value: unknown): string | undefined {
  const st = newState(false, undefined);
  decodeValue(node, value, '', st);
  const failure = st.fatal ?? st.saved;
  return failure === undefined ? undefined : renderFailure(failure);
}
