/**
 * The Updater (structured-merge-diff merge/update.go): computes who owns what after a write.
 * Update (create, PUT, non-apply patches) gives the writer every field whose value changed and
 * takes those fields from everyone else; Apply merges a configuration into the live object,
 * refuses (unless forced) to change fields other managers own, takes ownership of the applied
 * fields, and prunes the fields the applier applied last time and no longer applies when no one
 * else owns them. Managers whose version can no longer be converted to are dropped.
 */
import type { FieldFilter, FieldSet } from '../field-set.js';
import { filterComparison, type Comparison } from '../typed/compare.js';
import type { TypedValue } from '../typed/typed-value.js';
import { valuesEqual } from '../value.js';
import { conflictsFromManagers, ConflictsError } from './conflicts.js';
import { versionedSet, type ManagedFields, type VersionedSet } from './managed-fields.js';

/** Thrown by a Converter when the object cannot be expressed in the asked version at all. */
export class MissingVersionError extends Error {
  constructor(version: string) {
    super(`missing version: ${version}`);
    this.name = 'MissingVersionError';
  }
}

/** Converts typed objects between API versions; throws MissingVersionError for unknown versions. */
export interface Converter {
  convert(object: TypedValue, version: string): TypedValue;
}

/** Options of an Updater. */
export interface UpdaterOptions {
  readonly converter: Converter;
  /** Per API version, fields no manager ever owns (kube's reset fields, e.g. status for the main resource). */
  readonly ignoreFilter?: ReadonlyMap<string, FieldFilter>;
  /** When false (kube's setting), an apply that changes nothing returns no object. */
  readonly returnInputOnNoop?: boolean;
}

/** The result of Apply: the new object (undefined when the apply changed nothing) and the managers. */
export interface ApplyResult {
  readonly object: TypedValue | undefined;
  readonly managers: ManagedFields;
}

function isMissing(err: unknown): boolean {
  return err instanceof MissingVersionError;
}

/** merge.Updater. Stateless; the managed fields passed in are never mutated. */
export class Updater {
  constructor(private readonly opts: UpdaterOptions) {}

  private convert(object: TypedValue, version: string): TypedValue {
    return this.opts.converter.convert(object, version);
  }

  private update(oldObject: TypedValue, newObject: TypedValue, version: string, managers: ManagedFields, workflow: string, force: boolean): { managers: ManagedFields; compare: Comparison } {
    const conflicts: ManagedFields = new Map();
    const removed: ManagedFields = new Map();
    const compare = oldObject.compare(newObject);
    const versions = new Map<string, Comparison>([[version, filterComparison(compare, this.opts.ignoreFilter?.get(version))]]);
    for (const [manager, managerSet] of [...managers]) {
      if (manager === workflow) continue;
      let cmp = versions.get(managerSet.apiVersion);
      if (!cmp) {
        let oldV: TypedValue;
        let newV: TypedValue;
        try {
          oldV = this.convert(oldObject, managerSet.apiVersion);
          newV = this.convert(newObject, managerSet.apiVersion);
        } catch (err) {
          if (isMissing(err)) {
            managers.delete(manager);
            continue;
          }
          throw new Error(`failed to convert old object: ${(err as Error).message}`);
        }
        cmp = filterComparison(oldV.compare(newV), this.opts.ignoreFilter?.get(managerSet.apiVersion));
        versions.set(managerSet.apiVersion, cmp);
      }
      const conflictSet = managerSet.set.intersection(cmp.modified.union(cmp.added));
      if (!conflictSet.empty()) conflicts.set(manager, versionedSet(conflictSet, managerSet.apiVersion, false));
      if (!cmp.removed.empty()) removed.set(manager, versionedSet(cmp.removed, managerSet.apiVersion, false));
    }
    if (!force && conflicts.size > 0) throw new ConflictsError(conflictsFromManagers(conflicts));
    for (const [manager, c] of conflicts) {
      const m = managers.get(manager)!;
      managers.set(manager, versionedSet(m.set.difference(c.set), m.apiVersion, m.applied));
    }
    for (const [manager, r] of removed) {
      const m = managers.get(manager)!;
      managers.set(manager, versionedSet(m.set.difference(r.set), m.apiVersion, m.applied));
    }
    for (const [manager, m] of [...managers]) if (m.set.empty()) managers.delete(manager);
    return { managers, compare };
  }

  /** Update: call once the object to persist is final (live is the empty object on create). Returns the new managers. */
  updateFields(liveObject: TypedValue, newObject: TypedValue, version: string, managed: ManagedFields, manager: string): ManagedFields {
    let managers = this.reconcile(liveObject, managed);
    const res = this.update(liveObject, newObject, version, managers, manager, true);
    managers = res.managers;
    const compare = res.compare;
    const current = managers.get(manager)?.set;
    let set: FieldSet = current ? current.difference(compare.removed).union(compare.modified).union(compare.added) : compare.modified.union(compare.added);
    set = set.filter(this.opts.ignoreFilter?.get(version));
    if (set.empty()) managers.delete(manager);
    else managers.set(manager, versionedSet(set, version, false));
    return managers;
  }

  /** Apply: merges the configuration into the live object; throws ConflictsError when not forced and other managers own changed fields. */
  apply(liveObject: TypedValue, configObject: TypedValue, version: string, managed: ManagedFields, manager: string, force: boolean): ApplyResult {
    let managers = this.reconcile(liveObject, managed);
    let newObject = liveObject.merge(configObject);
    const lastSet = managers.get(manager);
    const set = configObject.toFieldSet().filter(this.opts.ignoreFilter?.get(version));
    managers.set(manager, versionedSet(set, version, true));
    newObject = this.prune(newObject, managers, manager, lastSet);
    managers = this.update(liveObject, newObject, version, managers, manager, force).managers;
    const unchanged = !this.opts.returnInputOnNoop && valuesSame(liveObject, newObject);
    return { object: unchanged ? undefined : newObject, managers };
  }

  private prune(merged: TypedValue, managers: ManagedFields, applyingManager: string, lastSet: VersionedSet | undefined): TypedValue {
    if (!lastSet || lastSet.set.empty()) return merged;
    const version = lastSet.apiVersion;
    let convertedMerged: TypedValue;
    try {
      convertedMerged = this.convert(merged, version);
    } catch (err) {
      if (isMissing(err)) return merged;
      throw new Error(`failed to prune fields: failed to convert merged object to last applied version: ${(err as Error).message}`);
    }
    const { schema, typeRef } = convertedMerged;
    let pruned = convertedMerged.removeItems(lastSet.set.ensureNamedFieldsAreMembers(schema, typeRef));
    pruned = this.addBackOwnedItems(convertedMerged, pruned, version, managers);
    pruned = this.addBackDanglingItems(convertedMerged, pruned, lastSet);
    return this.convert(pruned, managers.get(applyingManager)!.apiVersion);
  }

  private addBackOwnedItems(merged: TypedValue, pruned: TypedValue, prunedVersion: string, managed: ManagedFields): TypedValue {
    const managedAtVersion = new Map<string, FieldSet>();
    for (const m of managed.values()) {
      const prev = managedAtVersion.get(m.apiVersion);
      managedAtVersion.set(m.apiVersion, prev ? prev.union(m.set) : m.set);
    }
    // The pruned version first: conversions may need fields that pruning removed.
    const first = managedAtVersion.get(prunedVersion);
    if (first) {
      [merged, pruned] = this.addBackOwnedItemsForVersion(merged, pruned, prunedVersion, first);
      managedAtVersion.delete(prunedVersion);
    }
    for (const [version, set] of managedAtVersion) [merged, pruned] = this.addBackOwnedItemsForVersion(merged, pruned, version, set);
    return pruned;
  }

  private addBackOwnedItemsForVersion(merged: TypedValue, pruned: TypedValue, version: string, managed: FieldSet): [TypedValue, TypedValue] {
    let m: TypedValue;
    let p: TypedValue;
    try {
      m = this.convert(merged, version);
      p = this.convert(pruned, version);
    } catch (err) {
      if (isMissing(err)) return [merged, pruned];
      throw new Error(`failed add back owned items: failed to convert at version ${version}: ${(err as Error).message}`);
    }
    const { schema, typeRef } = m;
    const mergedSet = m.toFieldSet().ensureNamedFieldsAreMembers(schema, typeRef);
    const prunedSet = p.toFieldSet().ensureNamedFieldsAreMembers(schema, typeRef);
    const keep = prunedSet.union(managed.ensureNamedFieldsAreMembers(schema, typeRef));
    return [m, m.removeItems(mergedSet.difference(keep))];
  }

  private addBackDanglingItems(merged: TypedValue, pruned: TypedValue, lastSet: VersionedSet): TypedValue {
    let convertedPruned: TypedValue;
    try {
      convertedPruned = this.convert(pruned, lastSet.apiVersion);
    } catch (err) {
      if (isMissing(err)) return merged;
      throw new Error(`failed add back dangling items: ${(err as Error).message}`);
    }
    const { schema, typeRef } = merged;
    const prunedSet = convertedPruned.toFieldSet().ensureNamedFieldsAreMembers(schema, typeRef);
    const mergedSet = merged.toFieldSet().ensureNamedFieldsAreMembers(schema, typeRef);
    const last = lastSet.set.ensureNamedFieldsAreMembers(schema, typeRef);
    return merged.removeItems(mergedSet.difference(prunedSet).intersection(last));
  }

  /** reconcileManagedFieldsWithSchemaChanges: a new map; managers whose version is gone are dropped. */
  private reconcile(liveObject: TypedValue, managers: ManagedFields): ManagedFields {
    const result: ManagedFields = new Map();
    for (const [manager, vs] of managers) {
      let tv: TypedValue;
      try {
        tv = this.convert(liveObject, vs.apiVersion);
      } catch (err) {
        if (isMissing(err)) continue;
        throw err;
      }
      const reconciled = tv.reconcile(vs.set);
      result.set(manager, reconciled ? versionedSet(reconciled, vs.apiVersion, vs.applied) : vs);
    }
    return result;
  }
}

function valuesSame(a: TypedValue, b: TypedValue): boolean {
  return valuesEqual(a.value, b.value);
}
