/**
 * The structural model of a CRD version's schema (kube's structuralschema.Structural), built once
 * per version: each node's type, nullability, children and x-kubernetes-* extensions, plus flags
 * that let the per-request walks (pruning, defaulting, list and embedded checks) skip subtrees
 * with nothing to do.
 */
import type { JSONSchemaProps } from '../interface.js';

/** One node of the structural schema. Immutable once built. */
export interface StructuralNode {
  readonly props: JSONSchemaProps;
  readonly type: string;
  readonly nullable: boolean;
  readonly properties: ReadonlyMap<string, StructuralNode>;
  /** The property names in schema order, for kube-like error ordering. */
  readonly propertyOrder: ReadonlyMap<string, number>;
  /** additionalProperties as a schema (true without a schema counts as a free-form schema-less value). */
  readonly additional?: StructuralNode;
  /** additionalProperties: true (no schema): every key kept. */
  readonly additionalAllowsAny: boolean;
  readonly items?: StructuralNode;
  readonly preserveUnknown: boolean;
  readonly embedded: boolean;
  readonly intOrString: boolean;
  /** atomic (default), set or map. */
  readonly listType: string;
  readonly listMapKeys: readonly string[];
  /** granular (default) or atomic. */
  readonly mapType: string;
  readonly hasDefault: boolean;
  readonly default?: unknown;
  /** Some node below (or this one) has a default. */
  readonly subtreeHasDefaults: boolean;
  /** Some node below (or this one) is a list of type set or map. */
  readonly subtreeHasListTypes: boolean;
  /** Some node below (or this one) is an embedded resource. */
  readonly subtreeHasEmbedded: boolean;
}

function singleItems(items: JSONSchemaProps['items']): JSONSchemaProps | undefined {
  if (items === undefined) return undefined;
  // An array of schemas is not structural (CRD validation refuses it); its first entry is the best guess.
  return Array.isArray(items) ? (items as readonly JSONSchemaProps[])[0] : (items as JSONSchemaProps);
}

/** Builds the structural model of a schema (undefined schema: an object that preserves everything). */
export function buildStructural(props: JSONSchemaProps | undefined): StructuralNode {
  return build(props ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
}

function build(props: JSONSchemaProps): StructuralNode {
  const properties = new Map<string, StructuralNode>();
  const propertyOrder = new Map<string, number>();
  for (const [name, child] of Object.entries(props.properties ?? {})) {
    propertyOrder.set(name, propertyOrder.size);
    properties.set(name, build(child));
  }
  const ap = props.additionalProperties;
  const additional = typeof ap === 'object' && ap !== null ? build(ap) : undefined;
  const itemsProps = singleItems(props.items);
  const items = itemsProps ? build(itemsProps) : undefined;
  const children = [...properties.values(), ...(additional ? [additional] : []), ...(items ? [items] : [])];
  const listType = props['x-kubernetes-list-type'] ?? 'atomic';
  const embedded = props['x-kubernetes-embedded-resource'] === true;
  const hasDefault = props.default !== undefined;
  return {
    props,
    type: props.type ?? '',
    nullable: props.nullable === true,
    properties,
    propertyOrder,
    ...(additional ? { additional } : {}),
    additionalAllowsAny: ap === true,
    ...(items ? { items } : {}),
    preserveUnknown: props['x-kubernetes-preserve-unknown-fields'] === true,
    embedded,
    intOrString: props['x-kubernetes-int-or-string'] === true,
    listType,
    listMapKeys: props['x-kubernetes-list-map-keys'] ?? [],
    mapType: props['x-kubernetes-map-type'] ?? 'granular',
    hasDefault,
    ...(hasDefault ? { default: props.default } : {}),
    subtreeHasDefaults: hasDefault || children.some((c) => c.subtreeHasDefaults),
    subtreeHasListTypes: listType === 'set' || listType === 'map' || children.some((c) => c.subtreeHasListTypes),
    subtreeHasEmbedded: embedded || children.some((c) => c.subtreeHasEmbedded),
  };
}

/** True for a JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep JSON equality (key order ignored), as reflect.DeepEqual compares unstructured values. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a);
  const bo = b as Record<string, unknown>;
  if (ak.length !== Object.keys(bo).length) return false;
  for (const k of ak) {
    if (!Object.prototype.hasOwnProperty.call(bo, k) || !deepEqual((a as Record<string, unknown>)[k], bo[k])) return false;
  }
  return true;
}

/** A JSON deep copy (defaults are copied in so objects never share them). */
export function cloneJson<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}
