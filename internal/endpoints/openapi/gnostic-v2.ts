/**
 * Encodes an OpenAPI v2 (Swagger 2.0) JSON document as gnostic's `openapi.v2.Document` protobuf
 * (google/gnostic openapiv2/OpenAPIv2.proto), the representation kube-apiserver serves for
 * `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf` and the one kubectl parses.
 *
 * kube-openapi builds it with gnostic's compiler (openapi_v2.ParseDocument then proto.Marshal),
 * so this mirrors that compiler: fields in ascending field-number order, proto3 zero values left
 * out, maps as repeated Named* pairs in the JSON document's key order (kube's document is already
 * key-sorted), `x-` keys as vendor extensions whose Any.yaml holds the value as YAML text.
 * The input is read, never mutated; values of the wrong JSON type are left out rather than failing.
 */
import { boolField, isJsonObject, stringField, stringsField, writeNamedAnys, writeVendorExtensions, type JsonObject } from './gnostic/any.js';
import { encodeExternalDocs, encodeFileSchema, encodeHeader, encodeNamedSchemas, encodeSchema, writePrimitiveFields } from './gnostic/schema.js';
import { ProtoWriter } from './gnostic/wire.js';

/**
 * Encoded path items and definitions by their JSON object. A served document rebuilt after a
 * change (a CRD added) shares most of its path items and definitions with the previous one, so
 * passing the same cache re-encodes only the new ones. Entries must not be mutated once encoded.
 */
export type GnosticEncodingCache = WeakMap<object, Buffer>;

/** value's encoding through cache (encoded and remembered when absent). */
function cachedEncoding(cache: GnosticEncodingCache | undefined, value: JsonObject, encode: (v: JsonObject) => ProtoWriter): Buffer {
  let bytes = cache?.get(value);
  if (!bytes) {
    bytes = encode(value).finish();
    cache?.set(value, bytes);
  }
  return bytes;
}

/** Encodes a whole OpenAPI v2 document (parsed JSON) as a serialized openapi.v2.Document; cache, when given, is read and filled. */
export function encodeOpenApiV2Document(doc: JsonObject, cache?: GnosticEncodingCache): Buffer {
  const w = new ProtoWriter().string(1, stringField(doc.swagger));
  if (isJsonObject(doc.info)) w.message(2, encodeInfo(doc.info));
  w.string(3, stringField(doc.host))
    .string(4, stringField(doc.basePath))
    .strings(5, stringsField(doc.schemes))
    .strings(6, stringsField(doc.consumes))
    .strings(7, stringsField(doc.produces));
  if (isJsonObject(doc.paths)) w.message(8, encodePaths(doc.paths, cache));
  if (isJsonObject(doc.definitions)) w.message(9, cache ? encodeCachedDefinitions(doc.definitions, cache) : encodeNamedSchemas(doc.definitions));
  if (isJsonObject(doc.parameters)) w.message(10, encodeParameterDefinitions(doc.parameters));
  if (isJsonObject(doc.responses)) w.message(11, encodeResponseDefinitions(doc.responses));
  writeSecurity(w, 12, doc.security);
  if (isJsonObject(doc.securityDefinitions)) w.message(13, encodeSecurityDefinitions(doc.securityDefinitions));
  if (Array.isArray(doc.tags)) for (const t of doc.tags) if (isJsonObject(t)) w.message(14, encodeTag(t));
  if (isJsonObject(doc.externalDocs)) w.message(15, encodeExternalDocs(doc.externalDocs));
  writeVendorExtensions(w, 16, doc);
  return w.finish();
}

/** Info { title = 1; version = 2; description = 3; terms_of_service = 4; contact = 5; license = 6; vendor_extension = 7; }. */
function encodeInfo(i: JsonObject): ProtoWriter {
  const w = new ProtoWriter()
    .string(1, stringField(i.title))
    .string(2, stringField(i.version))
    .string(3, stringField(i.description))
    .string(4, stringField(i.termsOfService));
  if (isJsonObject(i.contact)) {
    const c = i.contact;
    const cw = new ProtoWriter().string(1, stringField(c.name)).string(2, stringField(c.url)).string(3, stringField(c.email));
    writeVendorExtensions(cw, 4, c);
    w.message(5, cw);
  }
  if (isJsonObject(i.license)) {
    const l = i.license;
    const lw = new ProtoWriter().string(1, stringField(l.name)).string(2, stringField(l.url));
    writeVendorExtensions(lw, 3, l);
    w.message(6, lw);
  }
  writeVendorExtensions(w, 7, i);
  return w;
}

/** Paths { repeated NamedAny vendor_extension = 1; repeated NamedPathItem path = 2; }. */
function encodePaths(paths: JsonObject, cache: GnosticEncodingCache | undefined): ProtoWriter {
  const w = new ProtoWriter();
  writeVendorExtensions(w, 1, paths);
  for (const [name, item] of Object.entries(paths)) {
    if (name.startsWith('/') && isJsonObject(item)) w.message(2, new ProtoWriter().string(1, name).bytes(2, cachedEncoding(cache, item, encodePathItem)));
  }
  return w;
}

/** Definitions { repeated NamedSchema additional_properties = 1; }, each schema's encoding through cache. */
function encodeCachedDefinitions(definitions: JsonObject, cache: GnosticEncodingCache): ProtoWriter {
  const w = new ProtoWriter();
  for (const [name, value] of Object.entries(definitions)) {
    if (isJsonObject(value)) w.message(1, new ProtoWriter().string(1, name).bytes(2, cachedEncoding(cache, value, encodeSchema)));
  }
  return w;
}

/** PathItem operations by field number: get = 2, put = 3, post = 4, delete = 5, options = 6, head = 7, patch = 8. */
const pathItemOperations: ReadonlyArray<[string, number]> = [
  ['get', 2],
  ['put', 3],
  ['post', 4],
  ['delete', 5],
  ['options', 6],
  ['head', 7],
  ['patch', 8],
];

/** PathItem { _ref = 1; operations 2..8; repeated ParametersItem parameters = 9; vendor_extension = 10; }. */
function encodePathItem(item: JsonObject): ProtoWriter {
  const w = new ProtoWriter().string(1, stringField(item.$ref));
  for (const [method, field] of pathItemOperations) {
    const op = item[method];
    if (isJsonObject(op)) w.message(field, encodeOperation(op));
  }
  writeParametersItems(w, 9, item.parameters);
  writeVendorExtensions(w, 10, item);
  return w;
}

/** Operation { tags = 1; summary = 2; description = 3; external_docs = 4; operation_id = 5; produces = 6; consumes = 7; parameters = 8; responses = 9; schemes = 10; deprecated = 11; security = 12; vendor_extension = 13; }. */
function encodeOperation(op: JsonObject): ProtoWriter {
  const w = new ProtoWriter().strings(1, stringsField(op.tags)).string(2, stringField(op.summary)).string(3, stringField(op.description));
  if (isJsonObject(op.externalDocs)) w.message(4, encodeExternalDocs(op.externalDocs));
  w.string(5, stringField(op.operationId)).strings(6, stringsField(op.produces)).strings(7, stringsField(op.consumes));
  writeParametersItems(w, 8, op.parameters);
  if (isJsonObject(op.responses)) w.message(9, encodeResponses(op.responses));
  w.strings(10, stringsField(op.schemes)).bool(11, boolField(op.deprecated));
  writeSecurity(w, 12, op.security);
  writeVendorExtensions(w, 13, op);
  return w;
}

/** JsonReference { _ref = 1; description = 2; }. */
function encodeJsonReference(r: JsonObject): ProtoWriter {
  return new ProtoWriter().string(1, stringField(r.$ref)).string(2, stringField(r.description));
}

/** Writes repeated ParametersItem { oneof { Parameter parameter = 1; JsonReference json_reference = 2; } }. */
function writeParametersItems(w: ProtoWriter, field: number, list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const p of list) {
    if (!isJsonObject(p)) continue;
    w.message(field, typeof p.$ref === 'string' ? new ProtoWriter().message(2, encodeJsonReference(p)) : new ProtoWriter().message(1, encodeParameter(p)));
  }
}

/** The NonBodyParameter oneof member, and where its primitive fields start, for each `in`. */
const nonBodyKinds: Readonly<Record<string, { member: number; allowEmptyValue: boolean; base: number; vendor: number }>> = {
  header: { member: 1, allowEmptyValue: false, base: 5, vendor: 22 },
  formData: { member: 2, allowEmptyValue: true, base: 6, vendor: 23 },
  query: { member: 3, allowEmptyValue: true, base: 6, vendor: 23 },
  path: { member: 4, allowEmptyValue: false, base: 5, vendor: 22 },
};

/**
 * Parameter { oneof { BodyParameter body_parameter = 1; NonBodyParameter non_body_parameter = 2; } },
 * chosen by `in` as gnostic's matcher does (only a body parameter has in: body).
 */
function encodeParameter(p: JsonObject): ProtoWriter {
  if (p.in === 'body') {
    // BodyParameter { description = 1; name = 2; in = 3; required = 4; schema = 5; vendor_extension = 6; }
    const b = new ProtoWriter().string(1, stringField(p.description)).string(2, stringField(p.name)).string(3, 'body').bool(4, boolField(p.required));
    if (isJsonObject(p.schema)) b.message(5, encodeSchema(p.schema));
    writeVendorExtensions(b, 6, p);
    return new ProtoWriter().message(1, b);
  }
  const kind = nonBodyKinds[String(p.in)];
  if (!kind) return new ProtoWriter();
  // Every sub-schema starts required = 1; in = 2; description = 3; name = 4; query and formData add allow_empty_value = 5.
  const s = new ProtoWriter().bool(1, boolField(p.required)).string(2, stringField(p.in)).string(3, stringField(p.description)).string(4, stringField(p.name));
  if (kind.allowEmptyValue) s.bool(5, boolField(p.allowEmptyValue));
  writePrimitiveFields(s, kind.base, p);
  writeVendorExtensions(s, kind.vendor, p);
  return new ProtoWriter().message(2, new ProtoWriter().message(kind.member, s));
}

/** ParameterDefinitions { repeated NamedParameter additional_properties = 1; }. */
function encodeParameterDefinitions(params: JsonObject): ProtoWriter {
  const w = new ProtoWriter();
  for (const [name, p] of Object.entries(params)) if (isJsonObject(p)) w.message(1, new ProtoWriter().string(1, name).message(2, encodeParameter(p)));
  return w;
}

/** Responses { repeated NamedResponseValue response_code = 1; vendor_extension = 2; }: keys are status codes or "default". */
function encodeResponses(responses: JsonObject): ProtoWriter {
  const w = new ProtoWriter();
  for (const [code, r] of Object.entries(responses)) {
    if (!/^([0-9]{3}|default)$/.test(code) || !isJsonObject(r)) continue;
    // ResponseValue { oneof { Response response = 1; JsonReference json_reference = 2; } }
    const value = typeof r.$ref === 'string' ? new ProtoWriter().message(2, encodeJsonReference(r)) : new ProtoWriter().message(1, encodeResponse(r));
    w.message(1, new ProtoWriter().string(1, code).message(2, value));
  }
  writeVendorExtensions(w, 2, responses);
  return w;
}

/** Response { description = 1; SchemaItem schema = 2; Headers headers = 3; Examples examples = 4; vendor_extension = 5; }. */
function encodeResponse(r: JsonObject): ProtoWriter {
  const w = new ProtoWriter().string(1, stringField(r.description));
  if (isJsonObject(r.schema)) {
    // SchemaItem { oneof { Schema schema = 1; FileSchema file_schema = 2; } }
    w.message(2, r.schema.type === 'file' ? new ProtoWriter().message(2, encodeFileSchema(r.schema)) : new ProtoWriter().message(1, encodeSchema(r.schema)));
  }
  if (isJsonObject(r.headers)) {
    // Headers { repeated NamedHeader additional_properties = 1; }
    const hw = new ProtoWriter();
    for (const [name, h] of Object.entries(r.headers)) if (isJsonObject(h)) hw.message(1, new ProtoWriter().string(1, name).message(2, encodeHeader(h)));
    w.message(3, hw);
  }
  if (isJsonObject(r.examples)) {
    const ew = new ProtoWriter();
    writeNamedAnys(ew, 1, r.examples);
    w.message(4, ew);
  }
  writeVendorExtensions(w, 5, r);
  return w;
}

/** ResponseDefinitions { repeated NamedResponse additional_properties = 1; }. */
function encodeResponseDefinitions(responses: JsonObject): ProtoWriter {
  const w = new ProtoWriter();
  for (const [name, r] of Object.entries(responses)) if (isJsonObject(r)) w.message(1, new ProtoWriter().string(1, name).message(2, encodeResponse(r)));
  return w;
}

/** Writes repeated SecurityRequirement { repeated NamedStringArray additional_properties = 1; } (StringArray { repeated string value = 1; }). */
function writeSecurity(w: ProtoWriter, field: number, list: unknown): void {
  if (!Array.isArray(list)) return;
  for (const req of list) {
    if (!isJsonObject(req)) continue;
    const rw = new ProtoWriter();
    for (const [name, scopes] of Object.entries(req)) rw.message(1, new ProtoWriter().string(1, name).message(2, new ProtoWriter().strings(1, stringsField(scopes))));
    w.message(field, rw);
  }
}

/** SecurityDefinitions { repeated NamedSecurityDefinitionsItem additional_properties = 1; }. */
function encodeSecurityDefinitions(defs: JsonObject): ProtoWriter {
  const w = new ProtoWriter();
  for (const [name, d] of Object.entries(defs)) {
    const item = isJsonObject(d) ? encodeSecurityDefinitionsItem(d) : undefined;
    if (item) w.message(1, new ProtoWriter().string(1, name).message(2, item));
  }
  return w;
}

/** Per OAuth2 flow: the SecurityDefinitionsItem member and the URL fields that follow scopes (from 4). */
const oauth2Flows: Readonly<Record<string, { member: number; urls: readonly string[] }>> = {
  implicit: { member: 3, urls: ['authorizationUrl'] },
  password: { member: 4, urls: ['tokenUrl'] },
  application: { member: 5, urls: ['tokenUrl'] },
  accessCode: { member: 6, urls: ['authorizationUrl', 'tokenUrl'] },
};

/**
 * SecurityDefinitionsItem's oneof, chosen by type (and flow for oauth2): basic = 1, apiKey = 2,
 * oauth2 implicit = 3, password = 4, application = 5, accessCode = 6. Undefined for an unknown type.
 */
function encodeSecurityDefinitionsItem(d: JsonObject): ProtoWriter | undefined {
  const type = stringField(d.type);
  const description = stringField(d.description);
  if (type === 'basic') {
    const s = new ProtoWriter().string(1, type).string(2, description);
    writeVendorExtensions(s, 3, d);
    return new ProtoWriter().message(1, s);
  }
  if (type === 'apiKey') {
    const s = new ProtoWriter().string(1, type).string(2, stringField(d.name)).string(3, stringField(d.in)).string(4, description);
    writeVendorExtensions(s, 5, d);
    return new ProtoWriter().message(2, s);
  }
  if (type !== 'oauth2') return undefined;
  const flow = stringField(d.flow);
  // Every OAuth2 variant starts type = 1; flow = 2; Oauth2Scopes scopes = 3 (repeated NamedString additional_properties = 1).
  const s = new ProtoWriter().string(1, type).string(2, flow);
  if (isJsonObject(d.scopes)) {
    const sw = new ProtoWriter();
    for (const [k, v] of Object.entries(d.scopes)) sw.message(1, new ProtoWriter().string(1, k).string(2, stringField(v)));
    s.message(3, sw);
  }
  const variant = flow === undefined ? undefined : oauth2Flows[flow];
  if (!variant) return undefined;
  let n = 4;
  for (const f of variant.urls) s.string(n++, stringField(d[f]));
  s.string(n++, description);
  writeVendorExtensions(s, n, d);
  return new ProtoWriter().message(variant.member, s);
}

/** Tag { name = 1; description = 2; external_docs = 3; vendor_extension = 4; }. */
function encodeTag(t: JsonObject): ProtoWriter {
  const w = new ProtoWriter().string(1, stringField(t.name)).string(2, stringField(t.description));
  if (isJsonObject(t.externalDocs)) w.message(3, encodeExternalDocs(t.externalDocs));
  writeVendorExtensions(w, 4, t);
  return w;
}
