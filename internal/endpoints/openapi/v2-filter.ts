/**
 * Cuts the Kubernetes 1.33 OpenAPI v2 document down to what this server serves: the paths of
 * served resources and subresources (namespaced, cluster-wide, /watch/ forms), only the
 * operations whose verb the resource implements, the discovery roots of served groups and
 * versions, the non-resource paths the server answers, and the parameters and definitions those
 * reach by $ref. Every response gets the description OpenAPI requires ("OK", "Unauthorized", ...).
 */
import { STATUS_CODES } from 'node:http';
import type { ApiInstaller } from '../installer.js';

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
