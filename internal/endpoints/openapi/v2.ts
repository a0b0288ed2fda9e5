/**
 * /openapi/v2: the Kubernetes 1.33 OpenAPI v2 document (api/gen/openapi/v2/swagger.json) cut down
 * to what this server serves, as JSON or as gnostic's protobuf (which kubectl fetches before
 * create/replace and for explain). The cut keeps the paths of served resources and subresources
 * (namespaced, cluster-wide and /watch/ forms) with only the operations whose verb the resource
 * implements, the discovery roots of served groups and versions, the non-resource paths the
 * server answers, and the parameters and definitions those reach by $ref; every response gets the
 * description OpenAPI requires ("OK", "Unauthorized", ...). Fragments (CRDs, extension API
 * servers) are merged in at run time through setFragment. Each representation is built on the
 * first request after a change and then served as cached bytes (gzipped once too) with an ETag of
 * its SHA-512 and If-None-Match (304), negotiated on Accept as kube-openapi does: the first
 * matching clause wins, nothing matching is 406.
 */
import { existsSync, readFileSync } from 'node:fs';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newNotAcceptable } from '../../apierrors/factories.js';
import type { ApiInstaller } from '../installer.js';
import { parseAccept } from '../negotiation/media-type.js';
import { acceptsGzip, matchesIfNoneMatch, representation, type Representation } from './cached-document.js';
import { encodeOpenApiV2Document, type GnosticEncodingCache } from './gnostic-v2.js';
import { mergeFragment, sortRecord, type MergeTarget, type SwaggerFragmentInput } from './merge-v2.js';

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

/** An Accept media type this endpoint serves, with the Content-Type and bytes it is answered with. */
interface Offer {
  readonly type: string;
  readonly subtype: string;
  readonly contentType: string;
  /** Answered with the protobuf encoding rather than JSON. */
  readonly protobuf: boolean;
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

/** Serves GET and HEAD /openapi/v2. Construction reads and encodes the document synchronously (call once at start). */
export class OpenApiV2Handler {
  /** The whole Kubernetes document: where definitions and parameters fragments refer to come from. */
  private readonly all: SwaggerDocument;
  /** The document cut down to what the installer serves, before fragments. */
  private readonly base: SwaggerDocument;
  private readonly fragments = new Map<string, SwaggerFragmentInput>();
  /** The served document and its encodings, built on the first request after a change. */
  private merged: SwaggerDocument | undefined;
  private json: Representation | undefined;
  private protobuf: Representation | undefined;
  /** Encoded path items and definitions, so a rebuild encodes only what changed. */
  private readonly gnosticCache: GnosticEncodingCache = new WeakMap();

  constructor(installer: ApiInstaller, options: OpenApiV2Options = {}) {
    this.all = JSON.parse(readFileSync(swaggerPath(), 'utf8')) as SwaggerDocument;
    this.base = filterSwagger(this.all, installer, options.nonResourcePaths ?? defaultNonResourcePaths);
    // Encoded now, as before the document went live: the first request does not wait about a
    // second for it, and the encoding cache then makes a rebuild after a change cost little.
    this.jsonRepresentation();
    this.protobufRepresentation();
  }

  /**
   * Adds (or with undefined removes) the paths, definitions and shared parameters source id
   * contributes (a CRD, an extension API server). Cheap: the document is rebuilt on the next
   * request. The built-in document keeps its paths; conflicting definitions are renamed (see
   * merge-v2.ts). fragment is kept by reference and must not be mutated afterwards.
   */
  setFragment(id: string, fragment: SwaggerFragmentInput | undefined): void {
    if (fragment === undefined) {
      if (!this.fragments.delete(id)) return;
    } else this.fragments.set(id, fragment);
    this.merged = undefined;
    this.json = undefined;
    this.protobuf = undefined;
  }

  /** The served document (do not mutate). */
  document(): SwaggerDocument {
    if (this.merged) return this.merged;
    if (this.fragments.size === 0) return (this.merged = this.base);
    const target: MergeTarget = { paths: { ...this.base.paths }, definitions: { ...(this.base.definitions ?? {}) }, parameters: { ...(this.base.parameters ?? {}) } };
    const ids = [...this.fragments.keys()].sort();
    for (const id of ids) mergeFragment(target, this.fragments.get(id) as SwaggerFragmentInput);
    // Fragments refer to built-in definitions and shared parameters the cut document may have left out.
    const wantedParameters = new Set<string>();
    collectRefs(target.paths, '#/parameters/', wantedParameters);
    for (const [name, p] of Object.entries(reachable(this.all.parameters ?? {}, wantedParameters, '#/parameters/'))) target.parameters[name] ??= p;
    const wantedDefinitions = new Set<string>();
    collectRefs(target.paths, '#/definitions/', wantedDefinitions);
    collectRefs(target.definitions, '#/definitions/', wantedDefinitions);
    collectRefs(target.parameters, '#/definitions/', wantedDefinitions);
    for (const [name, d] of Object.entries(reachable(this.all.definitions ?? {}, wantedDefinitions, '#/definitions/'))) target.definitions[name] ??= d;
    this.merged = {
      ...this.base,
      paths: sortRecord(target.paths) as SwaggerDocument['paths'],
      definitions: sortRecord(target.definitions),
      parameters: sortRecord(target.parameters),
    };
    return this.merged;
  }

  /** The served JSON document's bytes (do not mutate). */
  get jsonBytes(): Buffer {
    return this.jsonRepresentation().body;
  }

  /** The served protobuf document's bytes (do not mutate). */
  get protobufBytes(): Buffer {
    return this.protobufRepresentation().body;
  }

  private jsonRepresentation(): Representation {
    return (this.json ??= representation(Buffer.from(JSON.stringify(this.document()))));
  }

  private protobufRepresentation(): Representation {
    return (this.protobuf ??= representation(encodeOpenApiV2Document(this.document(), this.gnosticCache)));
  }

  /** What each Accept media type is answered with, in kube-openapi's preference order. */
  private static readonly offers: readonly Offer[] = [
    { type: 'application', subtype: 'json', contentType: 'application/json', protobuf: false },
    { type: 'application', subtype: openApiV2ProtobufDeprecatedType.slice('application/'.length), contentType: openApiV2ProtobufType, protobuf: true },
    { type: 'application', subtype: openApiV2ProtobufType.slice('application/'.length), contentType: openApiV2ProtobufType, protobuf: true },
  ];

  /** Serves req when path is /openapi/v2 and the method GET or HEAD; false otherwise. Throws 406 when Accept names nothing servable. */
  async handle(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
    if (path !== '/openapi/v2') return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    res.setHeader('Vary', 'Accept');
    const offer = this.negotiate(req.headers.accept);
    if (!offer) throw newNotAcceptable(['application/json', openApiV2ProtobufType]);
    // A request that timed out (or whose client left) has been answered already.
    if (res.headersSent || res.writableEnded) return true;
    const rep = offer.protobuf ? this.protobufRepresentation() : this.jsonRepresentation();
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
      const offer = OpenApiV2Handler.offers.find((o) => (c.type === '*' || c.type === o.type) && (c.subtype === '*' || c.subtype === o.subtype));
      if (offer) return offer;
    }
    return undefined;
  }
}
