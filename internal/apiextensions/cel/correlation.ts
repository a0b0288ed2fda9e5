/**
 * Pairing a value with its old value at the same place (kube's CorrelatedObject and map-list
 * lookup): object fields and map keys correlate by name; items of x-kubernetes-list-type: map
 * lists correlate by their key fields; items of set and atomic lists do not correlate. Used for
 * oldSelf of transition rules and for ratcheting (an unchanged value keeps its old errors away).
 */
import type { JSONSchemaProps } from '../interface.js';
import type { Ratcheting } from './interface.js';

/** JSON deep equality (objects by keys, arrays by order). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => Object.prototype.hasOwnProperty.call(bo, k) && deepEqual(ao[k], bo[k]));
}

function itemsOf(schema: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  const items = schema?.items;
  return items && !Array.isArray(items) ? (items as JSONSchemaProps) : undefined;
}

/** A finder of old items by the map-list keys of a new item; undefined for lists that are not list-type map. */
export function mapListLookup(schema: JSONSchemaProps | undefined, oldList: unknown): ((item: unknown) => unknown) | undefined {
  const keys = schema?.['x-kubernetes-list-map-keys'];
  if (schema?.['x-kubernetes-list-type'] !== 'map' || !keys || keys.length === 0 || !Array.isArray(oldList)) return undefined;
  const keyOf = (item: unknown): string | undefined => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
    const o = item as Record<string, unknown>;
    return JSON.stringify(keys.map((k) => o[k] ?? null));
  };
  const index = new Map<string, unknown>();
  for (const item of oldList) {
    const k = keyOf(item);
    if (k !== undefined && !index.has(k)) index.set(k, item);
  }
  return (item) => {
    const k = keyOf(item);
    return k === undefined ? undefined : index.get(k);
  };
}

/** A value, its correlated old value and its schema; the deep equality is computed once. */
export class Correlation {
  private equal: boolean | undefined;
  private lookup: ((item: unknown) => unknown) | undefined | null = null;

  constructor(
    readonly value: unknown,
    readonly old: unknown,
    readonly schema: JSONSchemaProps | undefined,
  ) {}

  /** Whether the value equals its old value. */
  unchanged(): boolean {
    if (this.equal === undefined) this.equal = deepEqual(this.value, this.old);
    return this.equal;
  }

  /** The field or map key's correlation; undefined when either side lacks it. */
  key(field: string): Correlation | undefined {
    const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
    if (!isMap(this.value) || !isMap(this.old)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(this.value, field) || !Object.prototype.hasOwnProperty.call(this.old, field)) return undefined;
    const ap = this.schema?.additionalProperties;
    const child = this.schema?.properties?.[field] ?? (typeof ap === 'object' ? ap : undefined);
    return new Correlation(this.value[field], this.old[field], child);
  }

  /** The list item's correlation (list-type map only). */
  index(i: number): Correlation | undefined {
    if (!Array.isArray(this.value) || i >= this.value.length) return undefined;
    if (this.lookup === null) this.lookup = mapListLookup(this.schema, this.old);
    if (!this.lookup) return undefined;
    const old = this.lookup(this.value[i]);
    return old === undefined ? undefined : new Correlation(this.value[i], old, itemsOf(this.schema));
  }
}

/** Whether errors raised at this node are ratcheted away. */
export function shouldRatchet(r: Ratcheting): boolean {
  if (r.current) return r.current.unchanged();
  return r.nearestParent?.unchanged() ?? false;
}

/** The ratcheting of a child field or map key. */
export function ratchetKey(r: Ratcheting, field: string): Ratcheting {
  if (!r.current) return r;
  // apiVersion and kind are the same on both sides after conversion, so they cannot ratchet.
  if (!r.nearestParent && (field === 'apiVersion' || field === 'kind')) return {};
  return { current: r.current.key(field), nearestParent: r.current };
}

/** The ratcheting of a list item. */
export function ratchetIndex(r: Ratcheting, i: number): Ratcheting {
  if (!r.current) return r;
  return { current: r.current.index(i), nearestParent: r.current };
}
