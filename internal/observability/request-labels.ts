/**
 * kube's label rules for the request metrics (k8s.io/apiserver/pkg/endpoints/metrics): the
 * reported verb (CanonicalVerb + CleanVerb + cleanVerb: LIST vs GET by scope, WATCH, APPLY,
 * CONNECT, anything else "other"), the scope (CleanScope), the dry_run value (cleanDryRun) and
 * the bounded label of a non-resource path. Pure functions of the request; the filter
 * (internal/filters/request-metrics.ts) calls them once per request.
 */
import type { RequestInfo } from '../request/request-info.js';
import { queryBool } from '../request/query-params.js';

/** kube's validRequestMethods: every other reported verb is "other". */
const validVerbs: ReadonlySet<string> = new Set(['APPLY', 'CONNECT', 'CREATE', 'DELETE', 'DELETECOLLECTION', 'GET', 'LIST', 'PATCH', 'POST', 'PROXY', 'PUT', 'UPDATE', 'WATCH', 'WATCHLIST']);

/** Subresources reported as CONNECT (kube's validConnectRequests). */
const connectSubresources: ReadonlySet<string> = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);

/** The reported verb for unknown methods. */
export const otherVerb = 'other';

/** The name in the request's path (not one a field selector names), as kube's installer routes by it. */
function pathName(info: RequestInfo): string {
  return info.parts.length >= 2 ? (info.parts[1] as string) : '';
}

/**
 * The scope label of apiserver_request_total, _duration_seconds and response_sizes: the route's
 * scope ("resource" for a named object or a create, "namespace", "cluster"; "" for non-resource
 * paths). A list that names one object by field selector still has its collection's scope.
 */
export function routeScope(info: RequestInfo): string {
  if (!info.isResourceRequest) return '';
  if (pathName(info) !== '' || info.verb === 'create') return 'resource';
  return info.namespace !== '' ? 'namespace' : 'cluster';
}

/** kube's CleanScope of the request info (apiserver_longrunning_requests): a selector's name counts. */
export function cleanScope(info: RequestInfo): string {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  return info.isResourceRequest ? 'cluster' : '';
}

/** Whether a ?watch= value turns a GET into a WATCH (kube reads anything but 0 and false as true). */
function watchParam(query: URLSearchParams): boolean {
  if (query.size === 0) return false;
  return queryBool(query.get('watch')) ?? false;
}

/**
 * The verb label. method is the HTTP method; scope is the scope the verb is judged by;
 * contentType the request's Content-Type header.
 */
export function reportedVerb(method: string, info: RequestInfo, scope: string, query: URLSearchParams, contentType: string | undefined): string {
  const m = method === 'GET' || method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE' || method === 'HEAD' ? method : method.toUpperCase();
  let verb = m;
  if (m === 'GET' || m === 'HEAD') {
    // The legacy /watch/ paths and ?watch= on a GET are watches, whatever the scope.
    if (info.isResourceRequest && info.verb === 'watch') return 'WATCH';
    if (m === 'GET' && watchParam(query)) return 'WATCH';
    verb = scope !== 'resource' && scope !== '' ? 'LIST' : 'GET';
  } else if (m === 'PATCH' && contentType === 'application/apply-patch+yaml') {
    verb = 'APPLY';
  }
  if (info.isResourceRequest && info.subresource !== '' && connectSubresources.has(info.subresource)) verb = 'CONNECT';
  return validVerbs.has(verb) ? verb : otherVerb;
}

/** The dry_run label: "" without the parameter, the sorted distinct values, or "invalid" (only All is valid). */
export function cleanDryRun(rawUrl: string, query: URLSearchParams): string {
  if (!rawUrl.includes('dryRun')) return '';
  const values = query.getAll('dryRun');
  if (values.length === 0) return '';
  for (const v of values) if (v !== 'All') return 'invalid';
  return 'All';
}

/** Whether a request counts as read-only for apiserver_current_inflight_requests (kube: get, list, watch). */
export function isReadOnly(info: RequestInfo): boolean {
  return info.verb === 'get' || info.verb === 'list' || info.verb === 'watch';
}

/**
 * The server's own non-resource paths a label may name (the health roots, metrics, version,
 * discovery and OpenAPI roots, service account issuer discovery). A path under one of them is
 * labelled with that root; any other path with "", so that the label stays bounded whatever
 * clients request.
 */
const nonResourceRoots: readonly string[] = [
  '/healthz',
  '/livez',
  '/readyz',
  '/metrics',
  '/version',
  '/api',
  '/apis',
  '/openapi/v2',
  '/openapi/v3',
  '/.well-known/openid-configuration',
  '/openid/v1/jwks',
];

/** The subresource label of a non-resource request (kube puts the path there): its known root, or "". */
export function nonResourceLabel(path: string): string {
  for (const root of nonResourceRoots) {
    if (path === root || (path.startsWith(root) && path.charCodeAt(root.length) === 47 /* / */)) return root;
  }
  return '';
}
