/**
 * A CRD version's openAPIV3Schema as kube publishes it: the structural schema (only the fields
 * kube's Structural type carries: no id, $schema, $ref, definitions, dependencies, patternProperties,
 * additionalItems or example), x-kubernetes-int-or-string unfolded into its anyOf, and for
 * OpenAPI v2 kube's ToStructuralOpenAPIV2 (junctors dropped; nullable and preserve-unknown-fields
 * nodes lose their type, properties and items; nullable properties leave required) and, once
 * merged, defaults pruned. Output objects are new; the input is never mutated.
 */
import type { JSONSchemaProps } from '../interface.js';
import { setOwnKey } from '../../collections/own-key.js';

/** A published schema node (plain JSON). */
export type PublishedSchema = Record<string, unknown>;

/** Generic and value-validation fields copied as they are (pointers in Go, so a 0 or false is kept). */
const valueFields = ['format', 'maximum', 'minimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'multipleOf', 'maxProperties', 'minProperties'] as const;

/** Extensions kube keeps only when set (Go bools and strings omitted when zero). */
function copyExtensions(s: JSONSchemaProps, out: PublishedSchema): void {
  if (s['x-kubernetes-preserve-unknown-fields'] === true) out['x-kubernetes-preserve-unknown-fields'] = true;
  if (s['x-kubernetes-embedded-resource'] === true) out['x-kubernetes-embedded-resource'] = true;
  if (s['x-kubernetes-int-or-string'] === true) out['x-kubernetes-int-or-string'] = true;
  if (s['x-kubernetes-list-map-keys']?.length) out['x-kubernetes-list-map-keys'] = [...s['x-kubernetes-list-map-keys']];
  if (s['x-kubernetes-list-type'] !== undefined) out['x-kubernetes-list-type'] = s['x-kubernetes-list-type'];
  if (s['x-kubernetes-map-type'] !== undefined) out['x-kubernetes-map-type'] = s['x-kubernetes-map-type'];
  if (s['x-kubernetes-validations']?.length) out['x-kubernetes-validations'] = structuredClone(s['x-kubernetes-validations']);
}

function copyGenericAndValues(s: JSONSchemaProps, out: PublishedSchema, nested: boolean): void {
  if (s.type) out.type = s.type;
  if (s.description) out.description = s.description;
  if (s.title) out.title = s.title;
  if (s.default !== undefined && s.default !== null) out.default = structuredClone(s.default);
  if (s.nullable === true) out.nullable = true;
  if (s.externalDocs && (s.externalDocs.description || s.externalDocs.url)) out.externalDocs = { ...s.externalDocs };
  for (const f of valueFields) if (s[f] !== undefined) out[f] = s[f];
  if (s.exclusiveMaximum === true) out.exclusiveMaximum = true;
  if (s.exclusiveMinimum === true) out.exclusiveMinimum = true;
  if (s.uniqueItems === true) out.uniqueItems = true;
  if (s.enum !== undefined) out.enum = structuredClone(s.enum);
  if (s.required?.length) out.required = [...s.required];
  for (const j of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[j];
    if (list?.length) out[j] = list.map((x) => toNested(x));
  }
  if (s.not) out.not = toNested(s.not);
  if (!nested && s.additionalProperties !== undefined) {
    out.additionalProperties = typeof s.additionalProperties === 'boolean' ? s.additionalProperties : toStructural(s.additionalProperties);
  }
}

function singleItems(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return Array.isArray(s.items) ? (s.items as JSONSchemaProps[])[0] : (s.items as JSONSchemaProps | undefined);
}

/** A value validation inside allOf/anyOf/oneOf/not (kube's NestedValueValidation). */
function toNested(s: JSONSchemaProps): PublishedSchema {
  const out: PublishedSchema = {};
  copyGenericAndValues(s, out, true);
  copyExtensions(s, out);
  const items = singleItems(s);
  if (items) out.items = toNested(items);
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, toNested(v)]));
  return out;
}

/** kube's Structural.ToKubeOpenAPI of s (before unfolding). */
function toStructural(s: JSONSchemaProps): PublishedSchema {
  const out: PublishedSchema = {};
  copyGenericAndValues(s, out, false);
  copyExtensions(s, out);
  const items = singleItems(s);
  if (items) out.items = toStructural(items);
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, toStructural(v)]));
  return out;
}

/** Visits s and every structural child (properties, items, additionalProperties) parent first; not junctors. */
function visitStructural(s: PublishedSchema, f: (node: PublishedSchema) => void): void {
  f(s);
  const props = s.properties as Record<string, PublishedSchema> | undefined;
  if (props) for (const p of Object.values(props)) visitStructural(p, f);
  if (s.items && typeof s.items === 'object') visitStructural(s.items as PublishedSchema, f);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') visitStructural(s.additionalProperties as PublishedSchema, f);
}

const isTypeOnly = (x: unknown, type: string): boolean => {
  const o = x as PublishedSchema | undefined;
  return !!o && typeof o === 'object' && Object.keys(o).length === 1 && o.type === type;
};

function isIntOrStringAnyOf(x: unknown): boolean {
  const any = (x as PublishedSchema | undefined)?.anyOf;
  return Array.isArray(any) && any.length === 2 && isTypeOnly(any[0], 'integer') && isTypeOnly(any[1], 'string');
}

/** kube's Unfold: x-kubernetes-int-or-string gains anyOf [integer, string] (or an allOf entry holding it) unless already spelled out. */
function unfold(s: PublishedSchema): void {
  visitStructural(s, (n) => {
    if (n['x-kubernetes-int-or-string'] !== true) return;
    const allOf = n.allOf as unknown[] | undefined;
    if (isIntOrStringAnyOf(n) || (allOf?.length && isIntOrStringAnyOf(allOf[0]) && Object.keys(allOf[0] as object).length === 1)) return;
    const pair = [{ type: 'integer' }, { type: 'string' }];
    if (n.anyOf === undefined) n.anyOf = pair;
    else n.allOf = [{ anyOf: pair }, ...(allOf ?? [])];
  });
}

/** kube's ToStructuralOpenAPIV2, in place. */
function toOpenApiV2(s: PublishedSchema): void {
  visitStructural(s, (n) => {
    delete n.allOf;
    delete n.oneOf;
    delete n.anyOf;
    delete n.not;
    // kubectl's v2 parser breaks on untyped values with items or properties.
    if (n.nullable === true) {
      delete n.type;
      delete n.nullable;
      delete n.items;
      delete n.properties;
    }
    if (n['x-kubernetes-preserve-unknown-fields'] === true) {
      delete n.items;
      delete n.properties;
    }
    if (n.items === undefined && n.type === 'array') delete n.type;
    if (n['x-kubernetes-preserve-unknown-fields'] === true && n.type === 'object') delete n.type;
    const props = n.properties as Record<string, PublishedSchema> | undefined;
    if (props && Array.isArray(n.required)) {
      const required = (n.required as string[]).filter((r) => props[r]?.nullable !== true);
      if (required.length > 0) n.required = required;
      else delete n.required;
    }
    const additional = n.additionalProperties as PublishedSchema | boolean | undefined;
    if (additional && typeof additional === 'object' && additional.nullable === true) delete n.required;
  });
}

/** The published form of a CRD version's schema (without the kube-native metadata the builder adds). */
export function publishedSchema(schema: JSONSchemaProps, v2: boolean): PublishedSchema {
  const out = toStructural(schema);
  unfold(out);
  if (v2) toOpenApiV2(out);
  return out;
}

/** kube-openapi's PruneDefaults: drops `default` from every schema node (not from properties named "default"). In place. */
export function pruneDefaults(s: unknown): void {
  if (!s || typeof s !== 'object' || Array.isArray(s)) return;
  const n = s as PublishedSchema;
  delete n.default;
  const props = n.properties as Record<string, unknown> | undefined;
  if (props && typeof props === 'object') for (const p of Object.values(props)) pruneDefaults(p);
  pruneDefaults(n.items);
  pruneDefaults(n.additionalProperties);
  pruneDefaults(n.not);
  for (const j of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(n[j])) for (const x of n[j] as unknown[]) pruneDefaults(x);
}

/** A deep copy of value with every object's keys in ascending order, as Go's encoding/json writes maps. */
export function sortedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => sortedKeys(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) setOwnKey(out, k, sortedKeys((value as Record<string, unknown>)[k]));
    return out as T;
  }
  return value;
}
