/**
 * The routes apiextensions' builder describes for one CRD version (the same in OpenAPI v2 and v3):
 * list (and list for all namespaces), create, deletecollection, read, replace, delete and patch of
 * the resource, and read, replace and patch of its status and scale subresources when the version
 * has them, each with its query parameters (from the options type of its action), request body,
 * responses and media types.
 */
import type { CrdView, CrdVersionView } from './crd-view.js';
import { definitionName, operationDescription, operationId } from './names.js';

/** A query or path parameter (v2 type; v3 wraps it in a schema). */
export interface RouteParameter {
  readonly name: string;
  readonly in: 'query' | 'path';
  readonly type: 'string' | 'integer' | 'boolean';
  readonly required?: boolean;
}

/** One operation of one path. */
export interface CrdRoute {
  readonly path: string;
  readonly method: 'get' | 'put' | 'post' | 'delete' | 'patch';
  /** x-kubernetes-action. */
  readonly action: string;
  readonly operationId: string;
  readonly description: string;
  readonly parameters: readonly RouteParameter[];
  /** The definition the request body is, and whether the body is required. */
  readonly body?: { readonly definition: string; readonly required: boolean };
  readonly consumes: readonly string[];
  readonly produces: readonly string[];
  /** Status code -> [description, definition]. */
  readonly responses: Readonly<Record<string, readonly [string, string]>>;
  readonly gvk: { readonly group: string; readonly kind: string; readonly version: string };
}

const metaV1 = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const scaleDefinition = 'io.k8s.api.autoscaling.v1.Scale';

const q = (name: string, type: RouteParameter['type'] = 'string'): RouteParameter => ({ name, in: 'query', type });

/** The query parameters of each action's options type (kube's AddObjectParams). */
const optionParameters: Readonly<Record<string, readonly RouteParameter[]>> = {
  get: [q('resourceVersion')],
  list: [q('allowWatchBookmarks', 'boolean'), q('continue'), q('fieldSelector'), q('labelSelector'), q('limit', 'integer'), q('resourceVersion'), q('resourceVersionMatch'), q('sendInitialEvents', 'boolean'), q('timeoutSeconds', 'integer'), q('watch', 'boolean')],
  put: [q('dryRun'), q('fieldManager'), q('fieldValidation')],
  post: [q('dryRun'), q('fieldManager'), q('fieldValidation')],
  patch: [q('dryRun'), q('fieldManager'), q('fieldValidation'), q('force', 'boolean')],
  delete: [q('dryRun'), q('gracePeriodSeconds', 'integer'), q('ignoreStoreReadErrorWithClusterBreakingPotential', 'boolean'), q('orphanDependents', 'boolean'), q('propagationPolicy')],
};

const jsonYaml = ['application/json', 'application/yaml'];
const patchTypes = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];

/** The routes of crd's version, in the builder's order. */
export function crdRoutes(crd: CrdView, version: CrdVersionView): CrdRoute[] {
  const v = version.name;
  const kindDef = definitionName(crd.group, v, crd.kind);
  const listDef = definitionName(crd.group, v, crd.listKind);
  const gvk = { group: crd.group, kind: crd.kind, version: v };
  const ns = crd.namespaced ? 'Namespaced' : '';
  const routes: CrdRoute[] = [];

  const add = (root: string, suffix: string, method: CrdRoute['method'], action: string, operationVerb: string, sample: string, reads?: string, operation?: string): void => {
    const subresource = suffix.split('/')[2] ?? '';
    const path = root + suffix;
    const parameters: RouteParameter[] = [q('pretty')];
    if (path.includes('{namespace}')) parameters.push({ name: 'namespace', in: 'path', type: 'string', required: true });
    if (path.includes('{name}')) parameters.push({ name: 'name', in: 'path', type: 'string', required: true });
    parameters.push(...(optionParameters[action === 'deletecollection' ? 'list' : action] ?? []));
    const responses: Record<string, readonly [string, string]> = { '200': ['OK', sample] };
    if (action === 'post') {
      responses['201'] = ['Created', sample];
      responses['202'] = ['Accepted', sample];
    } else if (action === 'delete') responses['202'] = ['Accepted', sample];
    else if (action === 'put') responses['201'] = ['Created', sample];
    const body = action === 'delete' ? { definition: `${metaV1}.DeleteOptions`, required: false } : reads ? { definition: reads, required: true } : undefined;
    const op = operation ?? `${operationVerb}${ns}${crd.kind}${subresource ? subresource[0]?.toUpperCase() + subresource.slice(1) : ''}`;
    routes.push({
      path,
      method,
      action,
      operationId: operationId(op, crd.group, v),
      description: operationDescription(operationVerb, crd.kind, subresource),
      parameters,
      ...(body ? { body } : {}),
      consumes: method === 'patch' ? patchTypes : jsonYaml,
      produces: jsonYaml,
      responses,
      gvk,
    });
  };

  let root = `/apis/${crd.group}/${v}/${crd.plural}`;
  if (crd.namespaced) {
    add(root, '', 'get', 'list', 'list', listDef, undefined, `list${crd.kind}ForAllNamespaces`);
    root = `/apis/${crd.group}/${v}/namespaces/{namespace}/${crd.plural}`;
  }
  add(root, '', 'get', 'list', 'list', listDef);
  add(root, '', 'post', 'post', 'create', kindDef, kindDef);
  add(root, '', 'delete', 'deletecollection', 'deletecollection', `${metaV1}.Status`);
  add(root, '/{name}', 'get', 'get', 'read', kindDef);
  add(root, '/{name}', 'put', 'put', 'replace', kindDef, kindDef);
  add(root, '/{name}', 'delete', 'delete', 'delete', `${metaV1}.Status`);
  add(root, '/{name}', 'patch', 'patch', 'patch', kindDef, `${metaV1}.Patch`);
  if (version.status) {
    add(root, '/{name}/status', 'get', 'get', 'read', kindDef);
    add(root, '/{name}/status', 'put', 'put', 'replace', kindDef, kindDef);
    add(root, '/{name}/status', 'patch', 'patch', 'patch', kindDef, `${metaV1}.Patch`);
  }
  if (version.scale) {
    add(root, '/{name}/scale', 'get', 'get', 'read', scaleDefinition);
    add(root, '/{name}/scale', 'put', 'put', 'replace', scaleDefinition, scaleDefinition);
    add(root, '/{name}/scale', 'patch', 'patch', 'patch', scaleDefinition, `${metaV1}.Patch`);
  }
  return routes;
}

/** The key that makes two parameters the same one. */
export const parameterKey = (p: RouteParameter): string => `${p.in}:${p.name}`;

/**
 * Groups routes by path; parameters every operation of a path shares move to the path (as
 * kube-openapi's builders do: a path with one operation keeps all of them there).
 */
export function routesByPath(routes: readonly CrdRoute[]): Map<string, { shared: RouteParameter[]; ops: { route: CrdRoute; own: RouteParameter[] }[] }> {
  const byPath = new Map<string, CrdRoute[]>();
  for (const r of routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  const out = new Map<string, { shared: RouteParameter[]; ops: { route: CrdRoute; own: RouteParameter[] }[] }>();
  for (const [path, list] of byPath) {
    const first = list[0] as CrdRoute;
    const shared = first.parameters.filter((p) => list.every((r) => r.parameters.some((x) => parameterKey(x) === parameterKey(p))));
    const sharedKeys = new Set(shared.map(parameterKey));
    out.set(path, {
      shared: [...shared].sort(byName),
      ops: list.map((route) => ({ route, own: route.parameters.filter((p) => !sharedKeys.has(parameterKey(p))).sort(byName) })),
    });
  }
  return out;
}

/** kube-openapi orders parameters by name, then by where they are. */
export function byName(a: { name: string; in: string }, b: { name: string; in: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : a.in < b.in ? -1 : a.in > b.in ? 1 : 0;
}
