/**
 * Derives patch metadata from an OpenAPI v2 document: per definition the Go struct name and every
 * field's type with its `x-kubernetes-patch-strategy` and `x-kubernetes-patch-merge-key` (which
 * openapi-gen copies from the Go `patchStrategy`/`patchMergeKey` tags kube's SMP reads), and the
 * definition of each kind. hack/gen-patch-meta.ts runs it over the 1.33 document; tests run it over
 * their own. Where the OpenAPI cannot show the Go type (types with their own JSON encoding, pointer
 * fields that may hold a list) the tables below say what the Go struct is.
 */
import type { PatchMetaDefinition } from './types.js';

/** The parts of an OpenAPI v2 schema patch metadata needs. */
export interface OpenAPISchema {
  readonly type?: string;
  readonly format?: string;
  readonly $ref?: string;
  readonly items?: OpenAPISchema;
  readonly additionalProperties?: OpenAPISchema | boolean | string;
  readonly properties?: Readonly<Record<string, OpenAPISchema>>;
  readonly 'x-kubernetes-patch-strategy'?: string;
  readonly 'x-kubernetes-patch-merge-key'?: string;
  readonly 'x-kubernetes-group-version-kind'?: readonly { readonly group: string; readonly version: string; readonly kind: string }[];
}

/** Patch metadata for a whole document. */
export interface PatchMetaDocument {
  /** By definition name (without the `io.k8s.` prefix). */
  readonly definitions: Record<string, PatchMetaDefinition>;
  /** Definition name by `<apiVersion>/<kind>` (`v1/Pod`, `apps/v1/Deployment`). */
  readonly kinds: Record<string, string>;
}

/** Options for documents other than Kubernetes' own. */
export interface PatchMetaOptions {
  /** More `<definition>.<property>` names whose Go field is a pointer (see pointerFields). */
  readonly pointerFields?: Iterable<string>;
}

const prefix = 'io.k8s.';
const apiextensions = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';

/**
 * Go types with their own JSON encoding, by definition: the fields encoding/json sees in the Go
 * struct (exported fields without a json tag keep their Go name; `json:"-"` ones are absent).
 */
const goStructFields: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'io.k8s.apimachinery.pkg.runtime.RawExtension': {},
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': {},
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch': {},
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': {},
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': {},
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { Format: 's' },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { Type: 'i64', IntVal: 'i32', StrVal: 's' },
  [`${apiextensions}.JSON`]: {},
  [`${apiextensions}.JSONSchemaPropsOrArray`]: { Schema: `*@${short(apiextensions)}.JSONSchemaProps`, JSONSchemas: `[]@${short(apiextensions)}.JSONSchemaProps` },
  [`${apiextensions}.JSONSchemaPropsOrBool`]: { Allows: 'b', Schema: `*@${short(apiextensions)}.JSONSchemaProps` },
  [`${apiextensions}.JSONSchemaPropsOrStringArray`]: { Schema: `*@${short(apiextensions)}.JSONSchemaProps`, Property: '[]s' },
};

/**
 * Struct-typed fields that are pointers in Go, among those whose JSON may be a list (types with
 * their own encoding): kube looks through a pointer when both sides hold lists, and refuses a
 * non-pointer struct. Other struct fields never hold a list in a valid object, so need no entry.
 */
const pointerFields: readonly string[] = [
  'io.k8s.api.resource.v1alpha3.AllocatedDeviceStatus.data',
  'io.k8s.api.resource.v1beta1.AllocatedDeviceStatus.data',
  'io.k8s.api.resource.v1beta2.AllocatedDeviceStatus.data',
  `${apiextensions}.JSONSchemaProps.additionalItems`,
  `${apiextensions}.JSONSchemaProps.additionalProperties`,
  `${apiextensions}.JSONSchemaProps.default`,
  `${apiextensions}.JSONSchemaProps.example`,
  `${apiextensions}.JSONSchemaProps.items`,
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry.fieldsV1',
];

function short(name: string): string {
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

function refName(ref: string, where: string): string {
  const m = /^#\/(?:definitions|components\/schemas)\/(.+)$/.exec(ref);
  if (!m) throw new Error(`${where}: unsupported $ref ${ref}`);
  return m[1] as string;
}

function typeExpression(s: OpenAPISchema, where: string, defs: Readonly<Record<string, OpenAPISchema>>): string {
  if (s.$ref !== undefined) {
    const name = refName(s.$ref, where);
    if (!Object.hasOwn(defs, name)) throw new Error(`${where}: $ref to missing definition ${name}`);
    return `@${short(name)}`;
  }
  switch (s.type) {
    case 'string':
      return s.format === 'byte' ? 'byte' : 's';
    case 'boolean':
      return 'b';
    case 'integer':
      return s.format === 'int32' ? 'i32' : 'i64';
    case 'number':
      return s.format === 'float' || s.format === 'float32' ? 'f32' : 'f64';
    case 'array':
      if (!s.items) throw new Error(`${where}: array without items`);
      return `[]${typeExpression(s.items, `${where}[]`, defs)}`;
    default: {
      // A map, or (no type, no properties) free-form JSON; a malformed additionalProperties is a map of anything.
      const ap = s.additionalProperties;
      if (typeof ap === 'object') return `{}${typeExpression(ap, `${where}{}`, defs)}`;
      if (ap !== undefined && ap !== false) return '{}any';
      return 'any';
    }
  }
}

function definitionFields(name: string, s: OpenAPISchema, defs: Readonly<Record<string, OpenAPISchema>>, pointers: ReadonlySet<string>): PatchMetaDefinition['f'] {
  const goOnly = goStructFields[name];
  if (goOnly !== undefined) return goOnly;
  if (s.properties === undefined) {
    // An object without properties is a Go struct{}; anything else is a shape to add to the table above.
    if (s.type === 'object') return {};
    throw new Error(`${name}: definition without properties is neither a known Go type nor an empty struct`);
  }
  const fields: Record<string, string | readonly [string, string, string?]> = {};
  for (const prop of Object.keys(s.properties).sort()) {
    const p = s.properties[prop] as OpenAPISchema;
    let expr = typeExpression(p, `${name}.${prop}`, defs);
    if (pointers.has(`${name}.${prop}`)) {
      if (!expr.startsWith('@')) throw new Error(`${name}.${prop}: listed as a pointer field but is not a struct`);
      expr = `*${expr}`;
    }
    const strategy = p['x-kubernetes-patch-strategy'];
    const mergeKey = p['x-kubernetes-patch-merge-key'];
    if (strategy === undefined && mergeKey === undefined) fields[prop] = expr;
    else fields[prop] = mergeKey === undefined ? [expr, strategy ?? ''] : [expr, strategy ?? '', mergeKey];
  }
  return fields;
}

/** The Go struct name, as reflect's Name() gives it: the last segment, first letter upper case. */
function goStructName(name: string): string {
  const last = name.slice(name.lastIndexOf('.') + 1);
  return last.charAt(0).toUpperCase() + last.slice(1);
}

/** Patch metadata of every definition of an OpenAPI v2 document, and the definition of every kind. */
export function patchMetaFromOpenAPI(definitions: Readonly<Record<string, OpenAPISchema>>, options: PatchMetaOptions = {}): PatchMetaDocument {
  const pointers = new Set([...pointerFields, ...(options.pointerFields ?? [])]);
  for (const p of pointers) {
    const dot = p.lastIndexOf('.');
    const def = definitions[p.slice(0, dot)];
    if (def !== undefined && def.properties?.[p.slice(dot + 1)] === undefined) throw new Error(`pointer field ${p} is not a property`);
  }
  const out: Record<string, PatchMetaDefinition> = {};
  const kinds: Record<string, string> = {};
  for (const name of Object.keys(definitions).sort()) {
    const s = definitions[name] as OpenAPISchema;
    out[short(name)] = { n: goStructName(name), f: definitionFields(name, s, definitions, pointers) };
    for (const gvk of s['x-kubernetes-group-version-kind'] ?? []) {
      const key = `${gvk.group === '' ? '' : `${gvk.group}/`}${gvk.version}/${gvk.kind}`;
      const existing = kinds[key];
      if (existing !== undefined && existing !== short(name)) throw new Error(`${key} names both ${existing} and ${short(name)}`);
      kinds[key] = short(name);
    }
  }
  return { definitions: out, kinds };
}
