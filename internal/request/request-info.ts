/**
 * RequestInfo: what a request asks for, parsed from its method, path and query the way
 * kube-apiserver's RequestInfoFactory parses them. Filters (authorization, audit, in-flight
 * limits) and the resource handlers all read it; it is computed once per request.
 */
import { queryBool } from './query-params.js';

/** The parsed request. */
export interface RequestInfo {
  /** True for /api/... and /apis/... paths that name a resource (not discovery). */
  readonly isResourceRequest: boolean;
  /** The URL path without the query. */
  readonly path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection, proxy; or the lowercased method for non-resource paths. */
  readonly verb: string;
  /** "api" or "apis" for resource requests, "" otherwise. */
  readonly apiPrefix: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** The path segments after the version (and namespace), e.g. ["pods","web","status"]. */
  readonly parts: readonly string[];
}

const specialVerbs = new Set(['proxy', 'watch']);
const namespaceSubresources = new Set(['status', 'finalize']);
const methodVerbs: Record<string, string> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

function nonResource(method: string, path: string): RequestInfo {
  return {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
}

/**
 * Parses a request. query is the parsed query string (only watch and fieldSelector are read).
 * Never throws: anything that is not a resource path is a non-resource request.
 */
export function parseRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const segments = path.replace(/^\/+|\/+$/g, '').split('/');
  if (segments.length === 0 || segments[0] === '') return nonResource(method, path);
  const prefix = segments[0] as string;
  if (prefix !== 'api' && prefix !== 'apis') return nonResource(method, path);
  let rest = segments.slice(1);
  let apiGroup = '';
  if (prefix === 'apis') {
    if (rest.length < 3) return nonResource(method, path);
    apiGroup = rest[0] as string;
    rest = rest.slice(1);
  } else if (rest.length < 2) {
    return nonResource(method, path);
  }
  const apiVersion = rest[0] as string;
  rest = rest.slice(1);

  let verb: string;
  let fromMethod = false;
  if (specialVerbs.has(rest[0] as string)) {
    if (rest.length < 2) return nonResource(method, path);
    verb = rest[0] as string;
    rest = rest.slice(1);
  } else {
    verb = methodVerbs[method.toUpperCase()] ?? method.toLowerCase();
    fromMethod = true;
  }

  let namespace = '';
  if (rest[0] === 'namespaces') {
    if (rest.length > 1) {
      namespace = rest[1] as string;
      if (rest.length > 2 && !namespaceSubresources.has(rest[2] as string)) rest = rest.slice(2);
    }
  }
  const resource = rest[0] ?? '';
  let name = rest[1] ?? '';
  const subresource = rest.length >= 3 ? (rest[2] as string) : '';

  // As kube: only a GET without a name becomes a list or (watch=true) a watch, and only it takes its
  // name from a metadata.name field selector; a named GET stays a get whatever its watch parameter,
  // and the legacy /watch/ path keeps the field selector out of the authorized name.
  if (rest.length < 2 && verb === 'get' && fromMethod) {
    verb = watchRequested(query.getAll('watch')) ? 'watch' : 'list';
    const sel = query.get('fieldSelector');
    const single = sel ? singleName(sel) : undefined;
    if (single) name = single;
  }
  if (rest.length < 2 && verb === 'delete') verb = 'deletecollection';
  return {
    isResourceRequest: true,
    path,
    verb,
    apiPrefix: prefix,
    apiGroup,
    apiVersion,
    namespace,
    resource,
    subresource,
    name,
    parts: rest,
  };
}

/**
 * Whether the watch parameter asks for a watch, as kube's parameter codec reads it: anything but
 * "0" and "false" (any case) is true, the empty value too (Convert_Slice_string_To_bool).
 */
function watchRequested(values: string[]): boolean {
  return queryBool(values[0]) ?? false;
}

/**
 * The name a field selector requires (a metadata.name= or == term among its terms), when it is a
 * valid path segment name, for authorization's name; kube's RequiresExactMatch.
 */
function singleName(selector: string): string | undefined {
  for (const term of selector.split(/(?<!\\),/)) {
    const m = /^metadata\.name==?(.*)$/.exec(term);
    if (!m) continue;
    const name = (m[1] as string).replace(/\\(.)/g, '$1');
    if (name === '' || name === '.' || name === '..' || /[/%]/.test(name)) return undefined;
    return name;
  }
  return undefined;
}
