/**
 * A CRD version's OpenAPI v3 document as kube's openapiv3 controller publishes it at
 * /openapi/v3/apis/<group>/<version>: the version's routes with inline parameters, request bodies
 * and responses per media type, the kind and list schemas (kept faithful: nullable, junctors,
 * defaults and int-or-string's anyOf stay), and every built-in schema they reach. The documents of
 * the CRDs sharing a group version merge into one.
 */
import type { CrdVersionView, CrdView } from './crd-view.js';
import { kindDefinition, listDefinition } from './kube-native.js';
import { definitionName, operationTag } from './names.js';
import { sortedKeys } from './published-schema.js';
import { crdRoutes, routesByPath, type CrdRoute, type RouteParameter } from './routes.js';

/** An OpenAPI v3 document (as JSON). */
export interface OpenApiV3Document {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, unknown>; [k: string]: unknown };
}

/** Finds a built-in schema by its component name (e.g. "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"). */
export type SchemaLibrary = (name: string) => unknown;

const prefix = '#/components/schemas/';
const schemaRef = (name: string): Record<string, unknown> => ({ $ref: `${prefix}${name}` });

function parameter(p: RouteParameter): Record<string, unknown> {
  return { in: p.in, name: p.name, ...(p.required ? { required: true } : {}), schema: { type: p.type, uniqueItems: true } };
}

function operation(route: CrdRoute, own: RouteParameter[]): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  for (const [code, [description, def]] of Object.entries(route.responses)) {
    responses[code] = { description, content: Object.fromEntries(route.produces.map((t) => [t, { schema: schemaRef(def) }])) };
  }
  responses['401'] = { description: 'Unauthorized' };
  return {
    description: route.description,
    operationId: route.operationId,
    ...(own.length > 0 ? { parameters: own.map(parameter) } : {}),
    ...(route.body
      ? { requestBody: { content: Object.fromEntries(route.consumes.map((t) => [t, { schema: schemaRef((route.body as { definition: string }).definition) }])), ...(route.body.required ? { required: true } : {}) } }
      : {}),
    responses,
    tags: [operationTag(route.gvk.group, route.gvk.version)],
    'x-kubernetes-action': route.action,
    'x-kubernetes-group-version-kind': { ...route.gvk },
  };
}

function collectRefs(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) collectRefs(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(prefix)) out.add(v.slice(prefix.length));
      else collectRefs(v, out);
    }
  }
}

/** Adds to schemas every schema the document's paths and schemas reach that library knows. In place. */
function closeOver(doc: OpenApiV3Document, library: SchemaLibrary): void {
  const queue = new Set<string>();
  collectRefs(doc.paths, queue);
  collectRefs(doc.components.schemas, queue);
  const pending = [...queue];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (name in doc.components.schemas) continue;
    const found = library(name);
    if (found === undefined) continue;
    doc.components.schemas[name] = structuredClone(found);
    const more = new Set<string>();
    collectRefs(found, more);
    for (const m of more) if (!(m in doc.components.schemas)) pending.push(m);
  }
}

/** The v3 document of one served version of crd. */
export function buildCrdOpenApiV3(crd: CrdView, version: CrdVersionView, library: SchemaLibrary): OpenApiV3Document {
  const names = { group: crd.group, version: version.name, kind: crd.kind, listKind: crd.listKind, plural: crd.plural };
  const doc: OpenApiV3Document = {
    openapi: '3.0.0',
    info: { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' },
    paths: {},
    components: {
      schemas: {
        [definitionName(crd.group, version.name, crd.kind)]: kindDefinition(names, crd.nonStructural ? undefined : version.schema, false, crd.preserveUnknownFields),
        [definitionName(crd.group, version.name, crd.listKind)]: listDefinition(names, false),
      },
    },
  };
  for (const [path, { shared, ops }] of routesByPath(crdRoutes(crd, version))) {
    const item: Record<string, unknown> = {};
    for (const { route, own } of ops) item[route.method] = operation(route, own);
    if (shared.length > 0) item.parameters = shared.map(parameter);
    doc.paths[path] = item;
  }
  closeOver(doc, library);
  return sortedKeys(doc);
}

/** Merges the documents of several CRDs of one group version (paths and schemas; the first keeps a name both have). */
export function mergeOpenApiV3(docs: readonly OpenApiV3Document[]): OpenApiV3Document {
  const out: OpenApiV3Document = { openapi: '3.0.0', info: { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' }, paths: {}, components: { schemas: {} } };
  for (const d of docs) {
    for (const [k, v] of Object.entries(d.paths)) if (!(k in out.paths)) out.paths[k] = v;
    for (const [k, v] of Object.entries(d.components.schemas)) if (!(k in out.components.schemas)) out.components.schemas[k] = v;
  }
  out.paths = Object.fromEntries(Object.entries(out.paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  out.components.schemas = Object.fromEntries(Object.entries(out.components.schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return out;
}
