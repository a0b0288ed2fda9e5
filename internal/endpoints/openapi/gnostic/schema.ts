/**
 * gnostic's schema messages: openapi.v2.Schema (with TypeItem, ItemsItem, Properties/NamedSchema,
 * AdditionalPropertiesItem, Xml), FileSchema, ExternalDocs, and the primitive fields shared by
 * PrimitivesItems, Header and the non-body parameter sub-schemas. Field numbers are those of
 * google/gnostic openapiv2/OpenAPIv2.proto; fields are written in ascending number order.
 */
import { boolField, doubleField, encodeAny, intField, isJsonObject, stringField, stringsField, writeVendorExtensions, type JsonObject } from './any.js';
import { ProtoWriter } from './wire.js';

/** Writes a JSON value's enum list as repeated Any field `field`. */
function writeEnum(w: ProtoWriter, field: number, value: unknown): void {
  if (Array.isArray(value)) for (const v of value) w.message(field, encodeAny(v));
}

/** openapi.v2.ExternalDocs { description = 1; url = 2; vendor_extension = 3; }. */
export function encodeExternalDocs(d: JsonObject): ProtoWriter {
  const w = new ProtoWriter().string(1, stringField(d.description)).string(2, stringField(d.url));
  writeVendorExtensions(w, 3, d);
  return w;
}

/** openapi.v2.Xml { name = 1; namespace = 2; prefix = 3; attribute = 4; wrapped = 5; vendor_extension = 6; }. */
function encodeXml(x: JsonObject): ProtoWriter {
  const w = new ProtoWriter()
    .string(1, stringField(x.name))
    .string(2, stringField(x.namespace))
    .string(3, stringField(x.prefix))
    .bool(4, boolField(x.attribute))
    .bool(5, boolField(x.wrapped));
  writeVendorExtensions(w, 6, x);
  return w;
}

/** openapi.v2.Schema for a JSON Schema object (recursively for items, allOf, properties, additionalProperties). */
export function encodeSchema(s: JsonObject): ProtoWriter {
  const w = new ProtoWriter()
    .string(1, stringField(s.$ref))
    .string(2, stringField(s.format))
    .string(3, stringField(s.title))
    .string(4, stringField(s.description));
  if ('default' in s) w.message(5, encodeAny(s.default));
  w.double(6, doubleField(s.multipleOf))
    .double(7, doubleField(s.maximum))
    .bool(8, boolField(s.exclusiveMaximum))
    .double(9, doubleField(s.minimum))
    .bool(10, boolField(s.exclusiveMinimum))
    .int64(11, intField(s.maxLength))
    .int64(12, intField(s.minLength))
    .string(13, stringField(s.pattern))
    .int64(14, intField(s.maxItems))
    .int64(15, intField(s.minItems))
    .bool(16, boolField(s.uniqueItems))
    .int64(17, intField(s.maxProperties))
    .int64(18, intField(s.minProperties))
    .strings(19, stringsField(s.required));
  writeEnum(w, 20, s.enum);
  // AdditionalPropertiesItem: oneof { Schema schema = 1; bool boolean = 2; }
  if (isJsonObject(s.additionalProperties)) w.message(21, new ProtoWriter().message(1, encodeSchema(s.additionalProperties)));
  else if (typeof s.additionalProperties === 'boolean') w.message(21, new ProtoWriter().oneofBool(2, s.additionalProperties));
  // TypeItem { repeated string value = 1; }: "type" may be one name or a list.
  if (typeof s.type === 'string') w.message(22, new ProtoWriter().strings(1, [s.type]));
  else if (Array.isArray(s.type)) w.message(22, new ProtoWriter().strings(1, stringsField(s.type)));
  // ItemsItem { repeated Schema schema = 1; }: "items" may be one schema or a list.
  if (isJsonObject(s.items)) w.message(23, new ProtoWriter().message(1, encodeSchema(s.items)));
  else if (Array.isArray(s.items)) w.message(23, schemaList(1, s.items));
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) if (isJsonObject(sub)) w.message(24, encodeSchema(sub));
  // Properties { repeated NamedSchema additional_properties = 1; } with NamedSchema { name = 1; value = 2; }.
  if (isJsonObject(s.properties)) w.message(25, encodeNamedSchemas(s.properties));
  w.string(26, stringField(s.discriminator)).bool(27, boolField(s.readOnly));
  if (isJsonObject(s.xml)) w.message(28, encodeXml(s.xml));
  if (isJsonObject(s.externalDocs)) w.message(29, encodeExternalDocs(s.externalDocs));
  if ('example' in s) w.message(30, encodeAny(s.example));
  writeVendorExtensions(w, 31, s);
  return w;
}

function schemaList(field: number, list: readonly unknown[]): ProtoWriter {
  const w = new ProtoWriter();
  for (const item of list) if (isJsonObject(item)) w.message(field, encodeSchema(item));
  return w;
}

/** A map of schemas as a message with repeated NamedSchema field 1 (Properties, Definitions), in key order. */
export function encodeNamedSchemas(map: JsonObject): ProtoWriter {
  const w = new ProtoWriter();
  for (const [name, value] of Object.entries(map)) {
    if (isJsonObject(value)) w.message(1, new ProtoWriter().string(1, name).message(2, encodeSchema(value)));
  }
  return w;
}

/** openapi.v2.FileSchema (a response schema of type "file"). */
export function encodeFileSchema(s: JsonObject): ProtoWriter {
  const w = new ProtoWriter().string(1, stringField(s.format)).string(2, stringField(s.title)).string(3, stringField(s.description));
  if ('default' in s) w.message(4, encodeAny(s.default));
  w.strings(5, stringsField(s.required)).string(6, stringField(s.type)).bool(7, boolField(s.readOnly));
  if (isJsonObject(s.externalDocs)) w.message(8, encodeExternalDocs(s.externalDocs));
  if ('example' in s) w.message(9, encodeAny(s.example));
  writeVendorExtensions(w, 10, s);
  return w;
}

/**
 * Writes the primitive fields shared by PrimitivesItems, Header and the non-body parameter
 * sub-schemas. They come in the same order everywhere, numbered from `base` (the number of
 * `type`): type, format, items, collectionFormat, default, maximum, exclusiveMaximum, minimum,
 * exclusiveMinimum, maxLength, minLength, pattern, maxItems, minItems, uniqueItems, enum, multipleOf.
 */
export function writePrimitiveFields(w: ProtoWriter, base: number, p: JsonObject): void {
  w.string(base, stringField(p.type)).string(base + 1, stringField(p.format));
  if (isJsonObject(p.items)) w.message(base + 2, encodePrimitivesItems(p.items));
  w.string(base + 3, stringField(p.collectionFormat));
  if ('default' in p) w.message(base + 4, encodeAny(p.default));
  w.double(base + 5, doubleField(p.maximum))
    .bool(base + 6, boolField(p.exclusiveMaximum))
    .double(base + 7, doubleField(p.minimum))
    .bool(base + 8, boolField(p.exclusiveMinimum))
    .int64(base + 9, intField(p.maxLength))
    .int64(base + 10, intField(p.minLength))
    .string(base + 11, stringField(p.pattern))
    .int64(base + 12, intField(p.maxItems))
    .int64(base + 13, intField(p.minItems))
    .bool(base + 14, boolField(p.uniqueItems));
  writeEnum(w, base + 15, p.enum);
  w.double(base + 16, doubleField(p.multipleOf));
}

/** openapi.v2.PrimitivesItems: the primitive fields from 1, vendor_extension = 18. */
export function encodePrimitivesItems(p: JsonObject): ProtoWriter {
  const w = new ProtoWriter();
  writePrimitiveFields(w, 1, p);
  writeVendorExtensions(w, 18, p);
  return w;
}

/** openapi.v2.Header (a response header): the primitive fields from 1, description = 18, vendor_extension = 19. */
export function encodeHeader(h: JsonObject): ProtoWriter {
  const w = new ProtoWriter();
  writePrimitiveFields(w, 1, h);
  w.string(18, stringField(h.description));
  writeVendorExtensions(w, 19, h);
  return w;
}
