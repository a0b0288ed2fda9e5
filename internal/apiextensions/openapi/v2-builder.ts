/**
 * A CRD's OpenAPI v2 fragment as kube's openapi controller publishes it: for every served version,
 * the paths of its routes and the kind and list definitions (converted for v2, defaults pruned),
 * merged into one fragment per CRD. Parameters kube's merged document shares under
 * "#/parameters/<name>-<hash>" are referenced by those names (the built-in document defines them).
 */
import type { CrdView } from './crd-view.js';
import { kindDefinition, listDefinition } from './kube-native.js';
import { definitionName, operationTag } from './names.js';
import { pruneDefaults, sortedKeys, type PublishedSchema } from './published-schema.js';
import { byName, crdRoutes, routesByPath, type CrdRoute, type RouteParameter } from './routes.js';

/** Paths and definitions one CRD adds to /openapi/v2. */
export interface SwaggerFragment {
  paths: Record<string, Record<string, unknown>>;
  definitions: Record<string, unknown>;
}

/** The shared parameter names kube's document uses, by parameter (and, for fieldManager and body, action). */
const sharedParameters: Readonly<Record<string, string>> = {
  'query:allowWatchBookmarks': 'allowWatchBookmarks-HC2hJt-J',
  'query:continue': 'continue-QfD61s0i',
  'query:fieldSelector': 'fieldSelector-xIcQKXFG',
  'query:labelSelector': 'labelSelector-5Zw57w4C',
  'query:limit': 'limit-1NfNmdNH',
  'query:resourceVersion': 'resourceVersion-5WAnf1kx',
  'query:resourceVersionMatch': 'resourceVersionMatch-t8XhRHeC',
  'query:sendInitialEvents': 'sendInitialEvents-rLXlEK_k',
  'query:timeoutSeconds': 'timeoutSeconds-yvYezaOC',
  'query:watch': 'watch-XNNPZGbK',
  'query:gracePeriodSeconds': 'gracePeriodSeconds--K5HaBOS',
  'query:ignoreStoreReadErrorWithClusterBreakingPotential': 'ignoreStoreReadErrorWithClusterBreakingPotential-QbNkfIqj',
  'query:orphanDependents': 'orphanDependents-uRB25kX5',
  'query:propagationPolicy': 'propagationPolicy-6jk3prlO',
  'query:force': 'force-tOGGb0Yi',
  'query:pretty': 'pretty-tJGM1-ng',
  'path:namespace': 'namespace-vgWSWtn3',
  'post:query:fieldManager': 'fieldManager-Qy4HdaTW',
  'put:query:fieldManager': 'fieldManager-Qy4HdaTW',
  'patch:query:fieldManager': 'fieldManager-7c6nTn1T',
  'delete:body': 'body-2Y1dVQaQ',
  'patch:body': 'body-78PwaGsr',
};

/** Every shared parameter name the fragments may refer to (the built-in document must define each). */
export const sharedParameterNames: readonly string[] = [...new Set(Object.values(sharedParameters))];

const ref = (name: string): Record<string, unknown> => ({ $ref: `#/parameters/${name}` });

function parameter(p: RouteParameter, action: string | undefined): Record<string, unknown> {
  const shared = (action !== undefined ? sharedParameters[`${action}:${p.in}:${p.name}`] : undefined) ?? sharedParameters[`${p.in}:${p.name}`];
  if (shared) return ref(shared);
  return { in: p.in, name: p.name, ...(p.required ? { required: true } : {}), type: p.type, uniqueItems: true };
}

function operation(route: CrdRoute, own: RouteParameter[]): Record<string, unknown> {
  const params: { name: string; in: string; value: Record<string, unknown> }[] = own.map((p) => ({ name: p.name, in: p.in, value: parameter(p, route.action) }));
  if (route.body) {
    const shared = sharedParameters[`${route.action}:body`];
    const value = shared ? ref(shared) : { in: 'body', name: 'body', ...(route.body.required ? { required: true } : {}), schema: { $ref: `#/definitions/${route.body.definition}` } };
    params.push({ name: 'body', in: 'body', value });
  }
  const responses: Record<string, unknown> = {};
  for (const [code, [description, def]] of Object.entries(route.responses)) responses[code] = { description, schema: { $ref: `#/definitions/${def}` } };
  responses['401'] = { description: 'Unauthorized' };
  return {
    consumes: [...route.consumes],
    description: route.description,
    operationId: route.operationId,
    ...(params.length > 0 ? { parameters: params.sort(byName).map((p) => p.value) } : {}),
    produces: [...route.produces],
    responses,
    schemes: ['https'],
    tags: [operationTag(route.gvk.group, route.gvk.version)],
    'x-kubernetes-action': route.action,
    'x-kubernetes-group-version-kind': { ...route.gvk },
  };
}

/** The v2 paths and definitions of crd's served versions (empty when it has none). */
export function buildCrdSwagger(crd: CrdView): SwaggerFragment {
  const paths: Record<string, Record<string, unknown>> = {};
  const definitions: Record<string, unknown> = {};
  for (const version of crd.versions) {
    if (!version.served) continue;
    const names = { group: crd.group, version: version.name, kind: crd.kind, listKind: crd.listKind, plural: crd.plural };
    const kind: PublishedSchema = kindDefinition(names, crd.nonStructural ? undefined : version.schema, true, crd.preserveUnknownFields);
    const list = listDefinition(names, true);
    // The controller prunes defaults so CRD definitions merge cleanly with the (default-free) static spec.
    pruneDefaults(kind);
    definitions[definitionName(crd.group, version.name, crd.kind)] = kind;
    definitions[definitionName(crd.group, version.name, crd.listKind)] = list;
    for (const [path, { shared, ops }] of routesByPath(crdRoutes(crd, version))) {
      const item: Record<string, unknown> = {};
      for (const { route, own } of ops) item[route.method] = operation(route, own);
      if (shared.length > 0) item.parameters = shared.map((p) => parameter(p, ops.length === 1 ? ops[0]?.route.action : undefined));
      paths[path] = item;
    }
  }
  return sortedKeys({ paths, definitions });
}
