/**
 * /openapi/v3: the index of group versions and one OpenAPI v3 document per served group version,
 * cut down from the Kubernetes 1.33 documents (api/gen/openapi/v3) to the paths of what this
 * server serves and the schemas they reference, plus the group versions set at run time (CRDs,
 * extension API servers). Served as cached bytes with a content hash in the index URLs, an ETag,
 * If-None-Match (304), and immutable caching when the hash matches (a stale hash redirects to the
 * current one), as kube-apiserver does.
 */
import { readFileSync, existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newPathNotFound } from '../../apierrors/factories.js';
import type { ApiInstaller } from '../installer.js';
import { acceptsGzip, matchesIfNoneMatch, representation, type Representation } from './cached-document.js';

/** The project root, from dist/internal/endpoints/openapi or internal/endpoints/openapi alike. */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'api', 'gen', 'openapi', 'v3'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('api/gen/openapi/v3 not found above the server code');
}

interface OpenApiDoc {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> };
  [k: string]: unknown;
}

const responseDescriptions: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted', '401': 'Unauthorized' };

/** The (group, version, resource, subresource) an OpenAPI path belongs to, or undefined for the root. */
function pathTarget(path: string, prefix: string): { resource: string; subresource: string; extra: boolean } | undefined {
  let rest = path.slice(prefix.length).replace(/^\/+/, '');
  if (rest === '') return undefined;
  if (rest.startsWith('watch/')) rest = rest.slice('watch/'.length);
  let segs = rest.split('/');
  if (segs[0] === 'namespaces' && segs[1] === '{namespace}' && segs.length >= 3) segs = segs.slice(2);
  // A connect subresource's path-suffixed form (pods/{name}/proxy/{path}) belongs to it.
  const proxyPath = segs.length === 4 && segs[2] === 'proxy' && segs[3] === '{path}';
  return { resource: segs[0] ?? '', subresource: segs[1] !== undefined ? (segs[2] ?? '') : '', extra: segs.length > 3 && !proxyPath };
}

function collectRefs(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) out.add(v.slice('#/components/schemas/'.length));
      else collectRefs(v, out);
    }
  }
}

function addResponseDescriptions(pathItem: Record<string, unknown>): void {
  for (const op of Object.values(pathItem)) {
    if (!op || typeof op !== 'object' || Array.isArray(op)) continue;
    const responses = (op as { responses?: Record<string, Record<string, unknown>> }).responses;
    if (!responses) continue;
    for (const [code, r] of Object.entries(responses)) if (r && r.description === undefined) r.description = responseDescriptions[code] ?? '';
  }
}

/** Cuts doc down to the served paths of group/version and the schemas they reach. */
export function filterDocument(doc: OpenApiDoc, installer: ApiInstaller, group: string, version: string): OpenApiDoc {
  const prefix = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    const target = pathTarget(path, prefix);
    if (target && (target.extra || !installer.lookup(group, version, target.resource, target.subresource))) continue;
    const copy = structuredClone(item);
    addResponseDescriptions(copy);
    paths[path] = copy;
  }
  const wanted = new Set<string>();
  collectRefs(paths, wanted);
  const all = doc.components?.schemas ?? {};
  const schemas: Record<string, unknown> = {};
  const queue = [...wanted];
  while (queue.length > 0) {
    const name = queue.pop() as string;
    if (name in schemas || !(name in all)) continue;
    schemas[name] = all[name];
    const more = new Set<string>();
    collectRefs(all[name], more);
    for (const m of more) if (!(m in schemas)) queue.push(m);
  }
  return { ...doc, paths, components: { ...(doc.components ?? {}), schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))) } };
}

/** One group version's document: its JSON and, once asked for, its bytes. */
interface Entry {
  readonly doc: unknown;
  rep?: Representation;
}

/**
 * Serves /openapi/v3 and /openapi/v3/<gv>. The built-in documents are cut at construction; group
 * versions added at run time (CRDs, extension API servers) through setGroupVersion are encoded,
 * hashed and gzipped on the first request after a change, and the index follows them.
 */
export class OpenApiV3Handler {
  private readonly builtIn = new Map<string, Entry>();
  private readonly dynamic = new Map<string, Entry>();
  /** Every built-in component schema by name (from the documents of the served group versions). */
  private readonly schemas = new Map<string, unknown>();
  private index: Representation | undefined;

  constructor(installer: ApiInstaller) {
    const dir = join(projectRoot(), 'api', 'gen', 'openapi', 'v3');
    for (const g of installer.groups()) {
      for (const v of g.versions) {
        const key = g.group === '' ? `api/${v.version}` : `apis/${g.group}/${v.version}`;
        const file = join(dir, `${key.replace(/\//g, '__')}_openapi.json`);
        if (!existsSync(file)) continue;
        const doc = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDoc;
        for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) if (!this.schemas.has(name)) this.schemas.set(name, schema);
        this.builtIn.set(key, { doc: filterDocument(doc, installer, g.group, v.version) });
      }
    }
  }

  /** A built-in component schema by name ("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"), or undefined. Do not mutate it. */
  readonly builtInSchema = (name: string): unknown => this.schemas.get(name);

  /**
   * Serves doc at /openapi/v3/<path> (path like "apis/stable.example.com/v1"), replacing what was
   * there, or with undefined stops serving what was set (a built-in document comes back). Cheap:
   * bytes, hash and index are rebuilt on the next request. doc must not be mutated afterwards.
   */
  setGroupVersion(path: string, doc: object | undefined): void {
    const key = path.replace(/^\/+|\/+$/g, '');
    if (doc === undefined) {
      if (!this.dynamic.delete(key)) return;
    } else this.dynamic.set(key, { doc });
    this.index = undefined;
  }

  private entry(key: string): Entry | undefined {
    return this.dynamic.get(key) ?? this.builtIn.get(key);
  }

  private rep(e: Entry): Representation {
    return (e.rep ??= representation(Buffer.from(JSON.stringify(e.doc))));
  }

  private indexRep(): Representation {
    if (this.index) return this.index;
    const keys = [...new Set([...this.builtIn.keys(), ...this.dynamic.keys()])].sort();
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const key of keys) paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${this.rep(this.entry(key) as Entry).hash}` };
    return (this.index = representation(Buffer.from(JSON.stringify({ paths }))));
  }

  /** Serves req when path is under /openapi/v3; false otherwise. */
  async handle(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
    if (path !== '/openapi/v3' && !path.startsWith('/openapi/v3/')) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const key = path.replace(/^\/openapi\/v3\/?/, '').replace(/\/+$/, '');
    if (key === '') {
      res.setHeader('Vary', 'Accept');
      send(req, res, this.indexRep());
      return true;
    }
    const entry = this.entry(key);
    if (!entry) throw newPathNotFound();
    const rep = this.rep(entry);
    const asked = query.get('hash');
    if (asked && asked !== rep.hash) {
      res.statusCode = 301;
      res.setHeader('Location', `/openapi/v3/${key}?hash=${rep.hash}`);
      res.end();
      return true;
    }
    res.setHeader('ETag', rep.etag);
    res.setHeader('Vary', 'Accept');
    if (asked) {
      res.setHeader('Cache-Control', 'public, immutable');
      res.setHeader('Expires', new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString());
    }
    if (matchesIfNoneMatch(req.headers['if-none-match'], rep.etag)) {
      res.statusCode = 304;
      res.end();
      return true;
    }
    send(req, res, rep);
    return true;
  }
}

/** Writes rep as JSON, gzipped from the cached bytes when accepted. */
function send(req: IncomingMessage, res: ServerResponse, rep: Representation): void {
  // A request that timed out (or whose client left) has been answered already.
  if (res.headersSent || res.writableEnded) return;
  const gzip = rep.gzipped !== undefined && acceptsGzip(req);
  const body = gzip ? (rep.gzipped as Buffer) : rep.body;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', res.getHeader('Cache-Control') ?? 'no-cache, private');
  if (rep.gzipped) res.setHeader('Vary', 'Accept, Accept-Encoding');
  if (gzip) res.setHeader('Content-Encoding', 'gzip');
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}
