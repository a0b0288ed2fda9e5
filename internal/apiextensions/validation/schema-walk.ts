/**
 * Reading a CRD's JSONSchemaProps as kube's Go types see it: which keywords are "set" (Go's zero
 * values are unset: false, "", nil; a pointer is set whatever it points to), and a walk over every
 * sub-schema (kube's SchemaHas).
 */
import type { JSONSchemaProps } from '../interface.js';

/** A JSON object of unknown shape. */
export type Json = Record<string, unknown>;

/** The value as a schema object, or undefined when it is not an object. */
export function asSchema(v: unknown): JSONSchemaProps | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JSONSchemaProps) : undefined;
}

/** The value as a plain JSON object, or undefined when it is not an object. */
export function asJson(v: unknown): Json | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
}

/** The entries of a map-valued keyword (properties, definitions, ...), in document order. */
export function schemaEntries(v: unknown): Array<[string, JSONSchemaProps]> {
  const o = asSchema(v);
  if (!o) return [];
  return Object.entries(o as Json).map(([k, s]) => [k, asSchema(s) ?? {}]);
}

/** The elements of a list-valued keyword (allOf, anyOf, oneOf), each as a schema. */
export function schemaList(v: unknown): JSONSchemaProps[] {
  return Array.isArray(v) ? v.map((s) => asSchema(s) ?? {}) : [];
}

/** The single items schema (kube's JSONSchemaPropsOrArray.Schema), or undefined. */
export function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return Array.isArray(s.items) ? undefined : asSchema(s.items);
}

/** additionalProperties as a schema (kube's JSONSchemaPropsOrBool.Schema), or undefined. */
export function additionalPropertiesSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return asSchema(s.additionalProperties);
}

/** The value is present (a Go pointer that is not nil). */
export function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** The string value of a Go string keyword ("" when absent). */
export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** A map keyword with entries (len(map) != 0). */
export function hasEntries(v: unknown): boolean {
  const o = asSchema(v);
  return !!o && Object.keys(o).length > 0;
}

function listHas(v: unknown, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (!Array.isArray(v)) return false;
  for (const x of v) if (schemaHas(asSchema(x), pred)) return true;
  return false;
}

function mapHas(v: unknown, pred: (s: JSONSchemaProps) => boolean): boolean {
  const o = asJson(v);
  if (!o) return false;
  for (const k in o) if (schemaHas(asSchema(o[k]), pred)) return true;
  return false;
}

/**
 * Calls pred on s and every sub-schema below it (items, allOf, anyOf, oneOf, not, properties,
 * additionalProperties, patternProperties, additionalItems, definitions, dependencies) and says
 * whether pred held anywhere. Allocates nothing per node: big CRDs are walked several times.
 * Never mutates.
 */
export function schemaHas(s: JSONSchemaProps | undefined, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (!s) return false;
  if (pred(s)) return true;
  if (Array.isArray(s.items) ? listHas(s.items, pred) : schemaHas(asSchema(s.items), pred)) return true;
  if (listHas(s.allOf, pred) || listHas(s.anyOf, pred) || listHas(s.oneOf, pred)) return true;
  if (schemaHas(asSchema(s.not), pred)) return true;
  if (mapHas(s.properties, pred) || mapHas(s.patternProperties, pred) || mapHas(s.definitions, pred)) return true;
  if (schemaHas(asSchema(s.additionalProperties), pred) || schemaHas(asSchema(s.additionalItems), pred)) return true;
  return mapHas(s.dependencies, pred);
}
