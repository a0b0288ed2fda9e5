/**
 * gnostic's generic values: openapi.v2.Any, NamedAny and the vendor extensions (`x-` keys) every
 * message carries. gnostic's compiler fills Any.yaml with the YAML text of the JSON value
 * (compiler.Marshal: yaml.v3, block style) and leaves Any.value unset; readers such as kubectl
 * yaml.Unmarshal that text. Here the text is written by the yaml package in YAML 1.1 mode, so
 * strings a 1.1 parser would read as booleans or numbers ("no", "on", "1") stay quoted.
 */
import { stringify } from 'yaml';
import { ProtoWriter } from './wire.js';

/** A JSON object as parsed from the OpenAPI document. */
export type JsonObject = Record<string, unknown>;

/** Whether value is a JSON object (not an array or null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The YAML text gnostic stores in Any.yaml for a JSON value (always ends in a newline). */
export function yamlText(value: unknown): string {
  return stringify(value, { version: '1.1', lineWidth: 0, blockQuote: false });
}

/** openapi.v2.Any { google.protobuf.Any value = 1; string yaml = 2; } holding value. */
export function encodeAny(value: unknown): ProtoWriter {
  return new ProtoWriter().string(2, yamlText(value));
}

/** openapi.v2.NamedAny { string name = 1; Any value = 2; }. */
export function encodeNamedAny(name: string, value: unknown): ProtoWriter {
  return new ProtoWriter().string(1, name).message(2, encodeAny(value));
}

/** Writes the `x-` keys of obj as repeated NamedAny field `field`, in the document's key order. */
export function writeVendorExtensions(w: ProtoWriter, field: number, obj: JsonObject): void {
  for (const [k, v] of Object.entries(obj)) if (k.startsWith('x-')) w.message(field, encodeNamedAny(k, v));
}

/** Writes each key/value of a map-valued JSON object as repeated NamedAny field `field` (Examples, Default). */
export function writeNamedAnys(w: ProtoWriter, field: number, obj: JsonObject): void {
  for (const [k, v] of Object.entries(obj)) w.message(field, encodeNamedAny(k, v));
}

/**
 * The value of a string field as gnostic reads it (compiler.StringForScalarNode): strings, the
 * text of integers, and "" for null; anything else is not a string and is left out.
 */
export function stringField(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  if (value === null) return '';
  return undefined;
}

/** A bool field's value, or undefined when the JSON value is not a boolean. */
export function boolField(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/** A double field's value, or undefined when the JSON value is not a number. */
export function doubleField(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** An int64 field's value, or undefined when the JSON value is not an integer. */
export function intField(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/** The strings of a repeated string field (non-string elements are left out, as gnostic does). */
export function stringsField(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map(stringField).filter((s): s is string => s !== undefined);
}
