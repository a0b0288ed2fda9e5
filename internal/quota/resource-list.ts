/**
 * Resource lists as quota arithmetic sees them (kube's k8s.io/apiserver/pkg/quota/v1 resources.go):
 * resource name -> Quantity, with the sums, masks and comparisons admission and the quota
 * controller use. Lists are never mutated by these functions; each returns a new one.
 */
import { newQuantity, parseQuantity, type Quantity } from '../validation/quantity.js';

/** A resource list: name -> quantity. */
export type ResourceList = ReadonlyMap<string, Quantity>;

const zero = newQuantity(0);

/** Reads a JSON resource list ({"pods":"3"}); values that do not parse are skipped (validation keeps them out). */
export function resourceListFromJSON(value: unknown): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  if (!value || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    try {
      out.set(k, parseQuantity(typeof v === 'number' ? String(v) : String(v).trim()));
    } catch {
      // a value kube's decoding would have refused never reaches a stored object
    }
  }
  return out;
}

/** Writes a resource list as JSON (canonical quantity strings). */
export function resourceListToJSON(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of list) out[k] = v.toString();
  return out;
}

/** Add: a + b (keys of either). */
export function add(a: ResourceList, b: ResourceList): Map<string, Quantity> {
  const out = new Map(a);
  for (const [k, v] of b) {
    const cur = out.get(k);
    out.set(k, cur ? cur.add(v) : v);
  }
  return out;
}

/** SubtractWithNonNegativeResult: a - b per key of a, floored at zero; keys only in b are zero. */
export function subtractNonNegative(a: ResourceList, b: ResourceList): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [k, v] of a) {
    const other = b.get(k);
    const q = other ? v.sub(other) : v;
    out.set(k, q.sign() > 0 ? q : zero);
  }
  for (const k of b.keys()) if (!out.has(k)) out.set(k, zero);
  return out;
}

/** Mask: only the keys named. */
export function mask(list: ResourceList, names: Iterable<string>): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const n of names) {
    const v = list.get(n);
    if (v) out.set(n, v);
  }
  return out;
}

/** LessThanOrEqual: whether every key of a that b also has is <= b's; the keys that are not. */
export function lessThanOrEqual(a: ResourceList, b: ResourceList): { ok: boolean; exceeded: string[] } {
  const exceeded: string[] = [];
  for (const [k, v] of a) {
    const limit = b.get(k);
    if (limit && v.cmp(limit) > 0) exceeded.push(k);
  }
  return { ok: exceeded.length === 0, exceeded };
}

/** Equals: the same keys with equal values. */
export function equals(a: ResourceList | undefined, b: ResourceList | undefined): boolean {
  const x = a ?? new Map<string, Quantity>();
  const y = b ?? new Map<string, Quantity>();
  if (x.size !== y.size) return false;
  for (const [k, v] of x) {
    const w = y.get(k);
    if (!w || v.cmp(w) !== 0) return false;
  }
  return true;
}

/** IsNegative: the names whose value is below zero. */
export function negativeNames(list: ResourceList): string[] {
  const out: string[] = [];
  for (const [k, v] of list) if (v.sign() < 0) out.push(k);
  return out;
}

/** RemoveZeros: without the zero values. */
export function removeZeros(list: ResourceList): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [k, v] of list) if (!v.isZero()) out.set(k, v);
  return out;
}

/** Intersection of two name lists, in a's order. */
export function intersection(a: readonly string[], b: readonly string[]): string[] {
  const set = new Set(b);
  return a.filter((n) => set.has(n));
}

/** prettyPrint: "a=1,b=2" sorted by name (the form of kube's quota messages). */
export function prettyPrint(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${(list.get(k) as Quantity).toString()}`)
    .join(',');
}

/** prettyPrintResourceNames: the names sorted, comma-joined. */
export function prettyPrintNames(names: Iterable<string>): string {
  return [...names].sort().join(',');
}

/** A quantity of value (DecimalSI). */
export function count(value: number): Quantity {
  return newQuantity(value);
}

