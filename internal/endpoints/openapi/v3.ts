/**
 * /openapi/v3: the index of group versions and one OpenAPI v3 document per served group version,
 * cut down from the Kubernetes 1.33 documents (api/gen/openapi/v3) to the paths of what this
 * server serves and the schemas they reference. Built once at start and served as cached bytes
 * with a content hash in the index URLs, an ETag, If-None-Match (304), and immutable caching when
 * the hash matches (a stale hash redirects to the current one), as kube-apiserver does.
 */
import { createHash } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newPathNotFound } from '../../apierrors/factories.js';
import type { ApiInstaller } from '../installer.js';
import { writeBody } from '../negotiation/writer.js';

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

interface Served {
  readonly body: Buffer;
  readonly hash: string;
}

/** Serves /openapi/v3 and /openapi/v3/<gv>. */
export class OpenApiV3Handler {
  private readonly documents = new Map<string, Served>();
  private index: Buffer;

  constructor(installer: ApiInstaller) {
    const dir = join(projectRoot(), 'api', 'gen', 'openapi', 'v3');
    const indexPaths: Record<string, { serverRelativeURL: string }> = {};
    for (const g of installer.groups()) {
      for (const v of g.versions) {
        const key = g.group === '' ? `api/${v.version}` : `apis/${g.group}/${v.version}`;
        const file = join(dir, `${key.replace(/\//g, '__')}_openapi.json`);
        if (!existsSync(file)) continue;
        const doc = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDoc;
        const body = Buffer.from(JSON.stringify(filterDocument(doc, installer, g.group, v.version)));
        const hash = createHash('sha512').update(body).digest('hex').toUpperCase();
        this.documents.set(key, { body, hash });
        indexPaths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
      }
    }
    this.index = Buffer.from(JSON.stringify({ paths: indexPaths }));
  }

  /**
   * Serves doc (or with undefined stops serving) at /openapi/v3/<path> (path as the index names
   * it, e.g. "apis/wardle.example.com/v1alpha1") and lists it in the index. Never mutates doc.
   */
  setGroupVersion(path: string, doc: Record<string, unknown> | undefined): void {
    const key = path.replace(/^\/+|\/+$/g, '');
    if (doc) {
      const body = Buffer.from(JSON.stringify(doc));
      this.documents.set(key, { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase() });
    } else if (!this.documents.delete(key)) {
      return;
    }
    const indexPaths: Record<string, { serverRelativeURL: string }> = {};
    for (const [k, d] of this.documents) indexPaths[k] = { serverRelativeURL: `/openapi/v3/${k}?hash=${d.hash}` };
    this.index = Buffer.from(JSON.stringify({ paths: indexPaths }));
  }

  /** Serves req when path is under /openapi/v3; false otherwise. */
  async handle(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
    if (path !== '/openapi/v3' && !path.startsWith('/openapi/v3/')) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const key = path.replace(/^\/openapi\/v3\/?/, '').replace(/\/+$/, '');
    if (key === '') {
      res.setHeader('Vary', 'Accept');
      await writeBody(req, res, 200, 'application/json', this.index);
      return true;
    }
    const doc = this.documents.get(key);
    if (!doc) throw newPathNotFound();
    const asked = query.get('hash');
    if (asked && asked !== doc.hash) {
      res.statusCode = 301;
      res.setHeader('Location', `/openapi/v3/${key}?hash=${doc.hash}`);
      res.end();
      return true;
    }
    const etag = `"${doc.hash}"`;
    res.setHeader('ETag', etag);
    res.setHeader('Vary', 'Accept');
    if (asked) {
      res.setHeader('Cache-Control', 'public, immutable');
      res.setHeader('Expires', new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString());
    }
    if (req.headers['if-none-match'] === etag) {
      res.statusCode = 304;
      res.end();
      return true;
    }
    await writeBody(req, res, 200, 'application/json', doc.body);
    return true;
  }
}
