/**
 * /openapi/v2: the Kubernetes 1.33 OpenAPI v2 document (api/gen/openapi/v2/swagger.json) cut down
 * to what this server serves, as JSON or as gnostic's protobuf (which kubectl fetches before
 * create/replace and for explain). The cut keeps the paths of served resources and subresources
 * (namespaced, cluster-wide and /watch/ forms) with only the operations whose verb the resource
 * implements, the discovery roots of served groups and versions, the non-resource paths the
 * server answers, and the parameters and definitions those reach by $ref; every response gets the
 * description OpenAPI requires ("OK", "Unauthorized", ...). Both representations are built once
 * at construction and served as cached bytes (gzipped once too) with an ETag of their SHA-512
 * and If-None-Match (304), negotiated on Accept as kube-openapi does: the first matching clause
 * wins, nothing matching is 406.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { newNotAcceptable } from '../../apierrors/factories.js';
import type { ApiInstaller } from '../installer.js';
import { parseAccept } from '../negotiation/media-type.js';
import { gzipThresholdBytes } from '../negotiation/writer.js';
import { encodeOpenApiV2Document } from './gnostic-v2.js';

/** An OpenAPI v2 document as parsed JSON. */
export interface SwaggerDocument {
  paths: Record<string, Record<string, unknown>>;
  definitions?: Record<string, unknown>;
  parameters?: Record<string, unknown>;
  [k: string]: unknown;
}

/** Non-resource paths this server answers (besides the /api and /apis discovery trees). */
export const defaultNonResourcePaths: readonly string[] = ['/version/', '/api/', '/apis/'];

/** The verb each x-kubernetes-action needs; connect (exec, attach, proxy, log) has none to check. */
const actionVerbs: Readonly<Record<string, string>> = {
  get: 'get',
  list: 'list',
  watch: 'watch',
  watchlist: 'watch',
  post: 'create',
  put: 'update',
  patch: 'patch',
  delete: 'delete',
  deletecollection: 'deletecollection',
};

const operationKeys = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/** Where a path points: a discovery root, a (sub)resource of a group version, or neither. */
type PathTarget =
  | { kind: 'group'; group: string }
  | { kind: 'groupVersion'; group: string; version: string }
  | { kind: 'resource'; group: string; version: string; resource: string; subresource: string }
  | { kind: 'other' };

/** Classifies an OpenAPI path ("/api/v1/namespaces/{namespace}/pods/{name}/status", "/apis/apps/", ...). */
export function pathTarget(path: string): PathTarget {
  const core = /^\/api\/([^/]+)\/(.*)$/.exec(path);
  const named = /^\/apis\/([^/]+)\/([^/]+)\/(.*)$/.exec(path);
  const m = core ? { group: '', version: core[1] as string, rest: core[2] as string } : named ? { group: named[1] as string, version: named[2] as string, rest: named[3] as string } : undefined;
  if (!m) {
    const group = /^\/apis\/([^/]+)\/$/.exec(path);
    return group ? { kind: 'group', group: group[1] as string } : { kind: 'other' };
  }
  if (m.rest === '') return { kind: 'groupVersion', group: m.group, version: m.version };
  let segs = m.rest.split('/');
  if (segs[0] === 'watch') segs = segs.slice(1);
  if (segs[0] === 'namespaces' && segs[1] === '{namespace}' && segs.length >= 3) segs = segs.slice(2);
  const [resource = '', , subresource = '', ...extra] = segs;
  // Only proxy subresources carry a further path ("/proxy/{path}"); anything else is not a resource path.
  if (extra.length > 0 && !(subresource === 'proxy' && extra.length === 1 && extra[0] === '{path}')) return { kind: 'other' };
  return { kind: 'resource', group: m.group, version: m.version, resource, subresource };
}

/** The served operations of a path item (a copy), or undefined when the path is not served. */
function servedPathItem(path: string, item: Record<string, unknown>, installer: ApiInstaller, nonResource: ReadonlySet<string>): Record<string, unknown> | undefined {
  const target = pathTarget(path);
  switch (target.kind) {
    case 'group':
      return installer.groups().some((g) => g.group === target.group) ? structuredClone(item) : undefined;
    case 'groupVersion':
      return installer.servesGroupVersion(target.group, target.version) ? structuredClone(item) : undefined;
    case 'other':
      return nonResource.has(path) ? structuredClone(item) : undefined;
    case 'resource': {
      const scope = installer.lookup(target.group, target.version, target.resource, target.subresource);
      if (!scope) return undefined;
      const copy: Record<string, unknown> = {};
      let operations = 0;
      for (const [key, value] of Object.entries(item)) {
        if (operationKeys.includes(key)) {
          const action = (value as Record<string, unknown>)['x-kubernetes-action'];
          const verb = typeof action === 'string' ? actionVerbs[action] : undefined;
          if (verb !== undefined && !scope.verbs.has(verb)) continue;
          operations++;
        }
        copy[key] = structuredClone(value);
      }
      return operations > 0 ? copy : undefined;
    }
  }
}

/** Gives every response without a description its status text, description first as kube writes it. */
function describeResponses(item: Record<string, unknown>): void {
  for (const key of operationKeys) {
    const op = item[key] as { responses?: Record<string, Record<string, unknown>> } | undefined;
    if (!op?.responses) continue;
    for (const [code, r] of Object.entries(op.responses)) {
      if (r && typeof r === 'object' && r.description === undefined && r.$ref === undefined) op.responses[code] = { description: STATUS_CODES[code] ?? '', ...r };
    }
  }
}

/** Adds the names of local $refs under prefix ("#/definitions/") found anywhere in value to out. */
function collectRefs(value: unknown, prefix: string, out: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, prefix, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') {
        if (v.startsWith(prefix)) out.add(v.slice(prefix.length));
      } else collectRefs(v, prefix, out);
    }
  }
}

/** The entries of all named by wanted or reachable from them by $ref under prefix, in the document's order. */
function reachable(all: Record<string, unknown>, wanted: Set<string>, prefix: string): Record<string, unknown> {
  const queue = [...wanted];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const name = queue.pop() as string;
    if (seen.has(name) || !(name in all)) continue;
    seen.add(name);
    const more = new Set<string>();
    collectRefs(all[name], prefix, more);
    for (const m of more) if (!seen.has(m)) queue.push(m);
  }
  return Object.fromEntries(Object.entries(all).filter(([k]) => seen.has(k)));
}

/**
 * Cuts doc down to what installer serves (plus the given non-resource paths, which must be
 * spelled as in the document, e.g. "/version/"). Returns a new document; doc is not mutated.
 */
export function filterSwagger(doc: SwaggerDocument, installer: ApiInstaller, nonResourcePaths: readonly string[] = defaultNonResourcePaths): SwaggerDocument {
  const nonResource = new Set(nonResourcePaths);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    const served = servedPathItem(path, item, installer, nonResource);
    if (!served) continue;
    describeResponses(served);
    paths[path] = served;
  }
  const out: SwaggerDocument = { ...doc, paths };
  const wantedParameters = new Set<string>();
  collectRefs(paths, '#/parameters/', wantedParameters);
  if (doc.parameters) out.parameters = reachable(doc.parameters, wantedParameters, '#/parameters/');
  if (doc.definitions) {
    const wantedDefinitions = new Set<string>();
    collectRefs(paths, '#/definitions/', wantedDefinitions);
    collectRefs(out.parameters, '#/definitions/', wantedDefinitions);
    out.definitions = reachable(doc.definitions, wantedDefinitions, '#/definitions/');
  }
  return out;
}

/**
 * The media type of the gnostic protobuf document. kube-openapi answers with this spelling for
 * both Accept spellings: the "@" of the other is not a valid token character, and client-go
 * (mime.ParseMediaType) rejects a Content-Type carrying it.
 */
export const openApiV2ProtobufType = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
/** The deprecated Accept spelling kubectl (client-go) still sends; answered as openApiV2ProtobufType. */
export const openApiV2ProtobufDeprecatedType = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

/** Options for the /openapi/v2 handler. */
export interface OpenApiV2Options {
  /** Non-resource paths the server answers, spelled as in the document ("/version/"); see defaultNonResourcePaths. */
  readonly nonResourcePaths?: readonly string[];
}

/** One served encoding of the document. */
interface Representation {
  readonly body: Buffer;
  /** The gzipped body when it is large enough to be worth compressing (kube's 128 KiB threshold). */
  readonly gzipped: Buffer | undefined;
  readonly etag: string;
}

function representation(body: Buffer): Representation {
  return {
    body,
    gzipped: body.length >= gzipThresholdBytes ? gzipSync(body) : undefined,
    // kube-openapi's computeETag: upper-case hex SHA-512, quoted.
    etag: `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"`,
  };
}

/** An Accept media type this endpoint serves, with the Content-Type and bytes it is answered with. */
interface Offer {
  readonly type: string;
  readonly subtype: string;
  readonly contentType: string;
  readonly rep: Representation;
}

/** api/gen/openapi/v2/swagger.json, found from dist/internal/endpoints/openapi or internal/endpoints/openapi alike. */
function swaggerPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = join(dir, 'api', 'gen', 'openapi', 'v2', 'swagger.json');
    if (existsSync(file)) return file;
    dir = dirname(dir);
  }
  throw new Error('api/gen/openapi/v2/swagger.json not found above the server code');
}

function acceptsGzip(req: IncomingMessage): boolean {
  const h = req.headers['accept-encoding'];
  return typeof h === 'string' && h.split(',').some((part) => part.trim().split(';')[0]?.trim().toLowerCase() === 'gzip');
}

/** Whether an If-None-Match header names etag (or is "*"); weak validators compare equal, as in net/http. */
function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

/** Serves GET and HEAD /openapi/v2. Construction reads and encodes the document synchronously (call once at start). */
export class OpenApiV2Handler {
  private json!: Representation;
  private protobuf!: Representation;
  /** What each Accept media type is answered with, in kube-openapi's preference order. */
  private offers: readonly Offer[] = [];
  /** The document of what the installer serves, before any fragment is merged in. */
  private readonly base: SwaggerDocument;
  /** Paths and definitions added at run time (e.g. an extension server's), by id. */
  private readonly fragments = new Map<string, { paths: Record<string, unknown>; definitions: Record<string, unknown> }>();

  constructor(installer: ApiInstaller, options: OpenApiV2Options = {}) {
    const doc = JSON.parse(readFileSync(swaggerPath(), 'utf8')) as SwaggerDocument;
    this.base = filterSwagger(doc, installer, options.nonResourcePaths ?? defaultNonResourcePaths);
    this.encode(this.base);
  }

  private encode(served: SwaggerDocument): void {
    this.json = representation(Buffer.from(JSON.stringify(served)));
    this.protobuf = representation(encodeOpenApiV2Document(served));
    this.offers = [
      { type: 'application', subtype: 'json', contentType: 'application/json', rep: this.json },
      { type: 'application', subtype: openApiV2ProtobufDeprecatedType.slice('application/'.length), contentType: openApiV2ProtobufType, rep: this.protobuf },
      { type: 'application', subtype: openApiV2ProtobufType.slice('application/'.length), contentType: openApiV2ProtobufType, rep: this.protobuf },
    ];
  }

  /**
   * Adds (or with undefined removes) the paths and definitions of id to the served document, which
   * is re-encoded at once. The base document's own paths and definitions win on a clash. Never
   * mutates fragment.
   */
  setFragment(id: string, fragment: { paths: Record<string, unknown>; definitions: Record<string, unknown> } | undefined): void {
    if (fragment) this.fragments.set(id, fragment);
    else if (!this.fragments.delete(id)) return;
    const paths: Record<string, unknown> = { ...this.base.paths };
    const definitions: Record<string, unknown> = { ...(this.base.definitions ?? {}) };
    for (const key of [...this.fragments.keys()].sort()) {
      const f = this.fragments.get(key) as { paths: Record<string, unknown>; definitions: Record<string, unknown> };
      for (const [p, item] of Object.entries(f.paths)) if (!(p in paths)) paths[p] = item;
      for (const [d, schema] of Object.entries(f.definitions)) if (!(d in definitions)) definitions[d] = schema;
    }
    this.encode({ ...this.base, paths: paths as SwaggerDocument['paths'], definitions: Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) as SwaggerDocument['definitions'] });
  }

  /** The served JSON document's bytes (do not mutate). */
  get jsonBytes(): Buffer {
    return this.json.body;
  }

  /** The served protobuf document's bytes (do not mutate). */
  get protobufBytes(): Buffer {
    return this.protobuf.body;
  }

  /** Serves req when path is /openapi/v2 and the method GET or HEAD; false otherwise. Throws 406 when Accept names nothing servable. */
  async handle(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
    if (path !== '/openapi/v2') return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    res.setHeader('Vary', 'Accept');
    const offer = this.negotiate(req.headers.accept);
    if (!offer) throw newNotAcceptable(['application/json', openApiV2ProtobufType]);
    // A request that timed out (or whose client left) has been answered already.
    if (res.headersSent || res.writableEnded) return true;
    const { rep } = offer;
    if (rep.gzipped) res.setHeader('Vary', 'Accept, Accept-Encoding');
    res.setHeader('ETag', rep.etag);
    if (matchesIfNoneMatch(req.headers['if-none-match'], rep.etag)) {
      res.statusCode = 304;
      res.end();
      return true;
    }
    // Written here rather than through writeBody: the gzipped bytes are cached, and writeBody's
    // Vary: Accept-Encoding would replace the Vary: Accept this negotiation needs.
    const gzip = rep.gzipped !== undefined && acceptsGzip(req);
    const body = gzip ? (rep.gzipped as Buffer) : rep.body;
    res.statusCode = 200;
    res.setHeader('Content-Type', offer.contentType);
    res.setHeader('Cache-Control', 'no-cache, private');
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }

  /** The offer for an Accept header: no header means any; the first clause (by preference) that matches wins. */
  private negotiate(accept: string | undefined): Offer | undefined {
    const clauses = accept === undefined || accept.trim() === '' ? parseAccept('*/*') : parseAccept(accept);
    for (const c of clauses) {
      const offer = this.offers.find((o) => (c.type === '*' || c.type === o.type) && (c.subtype === '*' || c.subtype === o.subtype));
      if (offer) return offer;
    }
    return undefined;
  }
}
