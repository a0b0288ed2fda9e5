/**
 * fieldpath.ManagedFields: per manager the set of fields it owns, the API version the set is
 * expressed in, and whether it came from an apply.
 */
import type { FieldSet } from '../field-set.js';

/** fieldpath.VersionedSet. Immutable. */
export interface VersionedSet {
  readonly set: FieldSet;
  readonly apiVersion: string;
  readonly applied: boolean;
}

/** Manager name to its versioned set. */
export type ManagedFields = Map<string, VersionedSet>;

/** A versioned set. */
export function versionedSet(set: FieldSet, apiVersion: string, applied: boolean): VersionedSet {
  return { set, apiVersion, applied };
}

/** ManagedFields.Difference: managers whose version or set differ between a and b (empty sets count as absent). */
export function managedFieldsDifference(a: ManagedFields, b: ManagedFields): ManagedFields {
  const diff: ManagedFields = new Map();
  for (const [manager, left] of a) {
    const right = b.get(manager);
    if (!right) {
      if (!left.set.empty()) diff.set(manager, left);
      continue;
    }
    if (left.apiVersion !== right.apiVersion) {
      diff.set(manager, right);
      continue;
    }
    const sym = left.set.difference(right.set).union(right.set.difference(left.set));
    if (!sym.empty()) diff.set(manager, versionedSet(sym, right.apiVersion, false));
  }
  for (const [manager, set] of b) if (!a.has(manager) && !set.set.empty()) diff.set(manager, set);
  return diff;
}
