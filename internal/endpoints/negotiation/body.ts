/**
 * Request bodies: reading them under kube's 3 MiB limit (413 beyond it) and decoding JSON or
 * YAML into an object whose apiVersion, kind and metadata have the right shape, with kube's 400
 * messages for what cannot be decoded.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { parse as yamlParse, parseDocument } from 'yaml';
import type { KubeObject } from '../../../api/meta/types.js';
import { newBadRequest, newRequestEntityTooLarge } from '../../apierrors/factories.js';
import { decodeObject, ProtobufError } from '../../../proto/codec.js';
import type { BodyEncoding } from './media-type.js';
import { parseJsonAsYaml } from './json-as-yaml.js';
import { parseStrictJson } from './strict-json.js';
import { setOwnKey } from '../../collections/own-key.js';
import { lingeringClose } from '../../server/serving/timeouts.js';

/** kube-apiserver's default --max-request-body-bytes equivalent for resource writes. */
export const maxRequestBodyBytes = 3 * 1024 * 1024;

/**
 * How much of a body its handler left unread Go's net/http still reads to keep the connection
 * (maxPostHandlerReadBytes); past it the answer says `Connection: close` and the connection closes.
 */
export const maxPostHandlerReadBytes = 256 * 1024;

/**
 * Ends the connection (HTTP/1.1) or the stream (HTTP/2) once the answer is written, as Go's
 * server does when a body it gave up on is still arriving: the answer says `Connection: close`,
 * the write side is shut, and what the client still sends is read and dropped for half a second
 * before the socket is closed, so that the client reads the answer rather than a reset. An HTTP/2
 * stream is reset with NO_ERROR after its answer (RFC 9113 8.1), leaving the connection serving.
 */
function closeAfterReply(req: IncomingMessage, res: ServerResponse | undefined): void {
  if (!res) return;
  const stream = (res as unknown as { stream?: { close(code?: number): void; closed: boolean; once(event: 'finish', f: () => void): void } }).stream;
  if (stream) {
    // The stream's own finish (its answer sent): the response's waits for the stream to close.
    stream.once('finish', () => {
      if (!stream.closed) stream.close(0);
    });
    return;
  }
  if (res.headersSent) return;
  res.shouldKeepAlive = false;
  const socket = req.socket as Socket & { destroySoon?: () => void };
  // node's server calls destroySoon once a `Connection: close` answer is written.
  socket.destroySoon = () => lingeringClose(socket);
}

/**
 * Reads the whole body; throws 413 past limit. As Go's server, it then reads up to 256 KiB more of
 * the body looking for its end, so the keep-alive connection goes on to serve the client's next
 * request; a body that goes on past that (or declares a length past it) closes the connection after
 * the answer, rather than reading an unbounded upload to drop it. Pass `res` for that.
 */
export async function readBody(req: IncomingMessage, limit = maxRequestBodyBytes, res?: ServerResponse): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    // Node drops a body nobody started reading once the answer is written; Go gives up on a
    // declared length whose unread rest is past maxPostHandlerReadBytes.
    if (declared >= maxPostHandlerReadBytes) closeAfterReply(req, res);
    throw newRequestEntityTooLarge(`limit is ${limit}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  let ended = true;
  // Not destroyed on leaving the loop: a destroyed request stops node reading its socket for good,
  // and the connection would never see the next request.
  for await (const chunk of req.iterator({ destroyOnReturn: false })) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) {
      tooLarge = true;
      if (size > limit + maxPostHandlerReadBytes) {
        ended = false;
        break;
      }
      continue;
    }
    chunks.push(buf);
  }
  if (tooLarge) {
    if (!ended) closeAfterReply(req, res);
    throw newRequestEntityTooLarge(`limit is ${limit}`);
  }
  return Buffer.concat(chunks);
}

/** A decoded body and what strict decoding noticed about it. */
export interface ParsedBody {
  readonly value: unknown;
  /** JSON: paths of keys repeated within their object, in document order. */
  readonly duplicateFields: readonly string[];
  /** YAML: go-yaml's `line N: key "k" already set in map` for each repeated key. */
  readonly yamlDuplicates: readonly string[];
  /** The body was YAML: kube converts it to JSON through maps, so object keys come out sorted. */
  readonly fromYaml: boolean;
  /** JSON: numbers written with a fraction or an exponent, by path, as written (see StrictJson). */
  readonly numberLiterals?: ReadonlyMap<string, string>;
}

/** Finds the repeated keys of a YAML document, as go-yaml's strict decoding words them. */
function yamlDuplicateKeys(text: string): string[] {
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: true });
  const out: string[] = [];
  for (const e of doc.errors) {
    if (e.code !== 'DUPLICATE_KEY' || !e.linePos) continue;
    const rest = text.slice(e.pos[0]);
    const raw = /^(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^:\n]*?))\s*:/.exec(rest);
    const key = raw ? (raw[1] !== undefined ? (JSON.parse(`"${raw[1]}"`) as string) : raw[2] !== undefined ? raw[2].replace(/''/g, "'") : (raw[3] ?? '').trim()) : '';
    out.push(`line ${e.linePos[0].line}: key ${JSON.stringify(key)} already set in map`);
  }
  return out;
}

/** Returns value with every object's keys sorted, as Go's map-based YAML to JSON conversion leaves them. */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) setOwnKey(out, k, sortKeysDeep((value as Record<string, unknown>)[k]));
  return out;
}

/**
 * Parses a body as JSON, YAML (1.1, as kube's sigs.k8s.io/yaml reads it) or Kubernetes Protobuf
 * (envelope and message, into the object's JSON form), noting repeated keys for field
 * validation; 400 on anything undecodable.
 */
export function parseBodyStrict(body: Buffer, encoding: BodyEncoding): ParsedBody {
  if (encoding === 'protobuf') {
    try {
      return { value: decodeObject(body), duplicateFields: [], yamlDuplicates: [], fromYaml: false };
    } catch (err) {
      if (err instanceof ProtobufError && err.code === 'MissingMagic') {
        throw newBadRequest('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
      }
      if (err instanceof ProtobufError) throw newBadRequest(`unable to decode protobuf body: ${err.message}`);
      throw err;
    }
  }
  const text = body.toString('utf8');
  if (encoding === 'yaml') {
    const json = parseJsonAsYaml(text);
    if (json) return { value: json.value, duplicateFields: [], yamlDuplicates: [], fromYaml: true };
    let value: unknown;
    try {
      value = yamlParse(text, { version: '1.1', uniqueKeys: false, maxAliasCount: 100 }) as unknown;
    } catch (err) {
      throw newBadRequest(`error converting YAML to JSON: yaml: ${(err as Error).message.split('\n')[0]}`);
    }
    return { value, duplicateFields: [], yamlDuplicates: yamlDuplicateKeys(text), fromYaml: true };
  }
  try {
    const parsed = parseStrictJson(text);
    return { value: parsed.value, duplicateFields: parsed.duplicates, yamlDuplicates: [], fromYaml: false, numberLiterals: parsed.numberLiterals };
  } catch (err) {
    throw newBadRequest(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
}

/** Parses a body without the strict-decoding findings (DeleteOptions, patches of other types). */
export function parseBody(body: Buffer, encoding: BodyEncoding): unknown {
  return parseBodyStrict(body, encoding).value;
}

/** What an endpoint expects a body to be. */
export interface ExpectedKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

const stringFields = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp'];
const integerFields = ['generation', 'deletionGracePeriodSeconds'];

function goType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

function metadataShapeError(meta: Record<string, unknown>): string | undefined {
  for (const f of stringFields) {
    const v = meta[f];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      return `json: cannot unmarshal ${goType(v)} into Go struct field ObjectMeta.metadata.${f} of type string`;
    }
  }
  for (const f of integerFields) {
    const v = meta[f];
    if (v !== undefined && v !== null && !(typeof v === 'number' && Number.isInteger(v))) {
      return `json: cannot unmarshal ${goType(v)} into Go struct field ObjectMeta.metadata.${f} of type int64`;
    }
  }
  for (const f of ['labels', 'annotations']) {
    const v = meta[f];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'object' || Array.isArray(v)) {
      return `json: cannot unmarshal ${goType(v)} into Go struct field ObjectMeta.metadata.${f} of type map[string]string`;
    }
    for (const x of Object.values(v as Record<string, unknown>)) {
      if (typeof x !== 'string') return `json: cannot unmarshal ${goType(x)} into Go struct field ObjectMeta.metadata.${f} of type string`;
    }
  }
  for (const f of ['finalizers', 'ownerReferences', 'managedFields']) {
    const v = meta[f];
    if (v !== undefined && v !== null && !Array.isArray(v)) {
      return `json: cannot unmarshal ${goType(v)} into Go struct field ObjectMeta.metadata.${f} of type []`;
    }
  }
  const fin = meta.finalizers;
  if (Array.isArray(fin) && fin.some((f) => typeof f !== 'string')) {
    return 'json: cannot unmarshal into Go struct field ObjectMeta.metadata.finalizers of type string';
  }
  return undefined;
}

/**
 * Checks a decoded body against the endpoint: an object, apiVersion and kind matching (or absent,
 * then filled in), metadata an object of the right field types. Returns it as a KubeObject.
 */
export function asObject(value: unknown, expected: ExpectedKind): KubeObject {
  const expectedGV = expected.group ? `${expected.group}/${expected.version}` : expected.version;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw newBadRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goType(value)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  const obj = value as Record<string, unknown>;
  const apiVersion = obj.apiVersion;
  const kind = obj.kind;
  if (apiVersion !== undefined && typeof apiVersion !== 'string') {
    throw newBadRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goType(apiVersion)} into Go struct field .apiVersion of type string`);
  }
  if (kind !== undefined && typeof kind !== 'string') {
    throw newBadRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${goType(kind)} into Go struct field .kind of type string`);
  }
  if (apiVersion && apiVersion !== expectedGV) {
    throw newBadRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${expectedGV})`);
  }
  if (kind && kind !== expected.kind) {
    const version = apiVersion ? apiVersion.slice(apiVersion.indexOf('/') + 1) : expected.version;
    throw newBadRequest(`${kind} in version "${version}" cannot be handled as a ${expected.kind}: the object provided is unrecognized (must be of type ${expected.kind})`);
  }
  const meta = obj.metadata;
  if (meta !== undefined && meta !== null && (typeof meta !== 'object' || Array.isArray(meta))) {
    throw newBadRequest(
      `${expected.kind} in version "${expected.version}" cannot be handled as a ${expected.kind}: json: cannot unmarshal ${goType(meta)} into Go struct field ${expected.kind}.metadata of type v1.ObjectMeta`,
    );
  }
  const metadata = (meta ?? {}) as Record<string, unknown>;
  const shape = metadataShapeError(metadata);
  if (shape) throw newBadRequest(`${expected.kind} in version "${expected.version}" cannot be handled as a ${expected.kind}: ${shape}`);
  const { apiVersion: _a, kind: _k, metadata: _m, ...rest } = obj;
  return { kind: expected.kind, apiVersion: expectedGV, metadata, ...rest } as KubeObject;
}
