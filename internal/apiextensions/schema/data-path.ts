/**
 * Locating an ajv error in the object: its JSON pointer becomes kube's field path
 * ("spec.items[2].name", map keys joined with "."), the segments the ratcheting walk follows, and
 * a sort key that puts errors in the order kube-openapi's validators emit them.
 */
import { isObject, type StructuralNode } from './structural.js';

/** A step into the object: a map key or a list index. */
export type Segment = string | number;

/** Where a value sits in the object. */
export interface Location {
  /** kube's field path ('' for the root). */
  readonly path: string;
  readonly segments: readonly Segment[];
  /** Position among the validators of each ancestor, compared lexicographically. */
  readonly order: readonly number[];
  /** The structural node of the value (undefined when the schema says nothing there). */
  readonly node: StructuralNode | undefined;
  readonly value: unknown;
}

/** Ranks of kube-openapi's validators at one node, in the order SchemaValidator runs them. */
export const rank = {
  type: 0,
  composite: 1,
  maxLength: 2,
  minLength: 3,
  pattern: 4,
  format: 5,
  multipleOf: 6,
  maximum: 7,
  minimum: 8,
  items: 9,
  minItems: 10,
  maxItems: 11,
  uniqueItems: 12,
  enum: 13,
  properties: 14,
  additional: 15,
  property: 16,
  required: 17,
} as const;

/** Decodes a JSON pointer into its raw tokens. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The root location of data. */
export function rootLocation(data: unknown, root: StructuralNode): Location {
  return { path: '', segments: [], order: [], node: root, value: data };
}

/** The location one step below parent. */
export function childLocation(parent: Location, token: string): Location {
  const v = parent.value;
  const s = parent.node;
  if (Array.isArray(v)) {
    const i = Number(token);
    return {
      path: `${parent.path}[${i}]`,
      segments: [...parent.segments, i],
      order: [...parent.order, rank.items, i],
      node: s?.items,
      value: v[i],
    };
  }
  const obj = isObject(v) ? v : {};
  const propIndex = s?.propertyOrder.get(token);
  const order =
    propIndex !== undefined ? [...parent.order, rank.property, propIndex] : [...parent.order, rank.additional, Object.keys(obj).indexOf(token)];
  return {
    path: parent.path === '' ? token : `${parent.path}.${token}`,
    segments: [...parent.segments, token],
    order,
    node: propIndex !== undefined ? s?.properties.get(token) : s?.additional,
    value: obj[token],
  };
}

/** Locates a JSON pointer, reusing the locations of its prefixes from cache. */
export function locate(pointer: string, data: unknown, root: StructuralNode, cache: Map<string, Location>): Location {
  const hit = cache.get(pointer);
  if (hit) return hit;
  let loc: Location;
  if (pointer === '') loc = rootLocation(data, root);
  else {
    const cut = pointer.lastIndexOf('/');
    const parent = locate(pointer.slice(0, cut), data, root, cache);
    loc = childLocation(parent, pointer.slice(cut + 1).replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  cache.set(pointer, loc);
  return loc;
}

/** Lexicographic comparison of two sort keys (a prefix sorts first). */
export function compareOrder(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}
