/**
 * ReconcileFieldSetWithSchema (structured-merge-diff typed/reconcile_schema.go): adapts a manager's
 * field set to schema changes made since it was written: a granular map or list that became atomic
 * is owned whole by whoever owned any of it.
 * Deduced (schema-less) values are never reconciled. The reverse change (atomic to granular) leaves
 * the set as it is, as structured-merge-diff v4.6 does: the owner keeps the container as a member,
 * which conflicts with nothing and is pruned with it.
 */
import { FieldSet } from '../field-set.js';
import type { PathElement } from '../path-element.js';
import { deducedSchema, findField, type Schema, type TypeRef } from '../schema.js';
import { handleAtom } from './helpers.js';

/** The reconciled set, or undefined when nothing changes; tr is the root type of the live object. */
export function reconcileFieldSetWithSchema(fieldSet: FieldSet, schema: Schema, tr: TypeRef | undefined): FieldSet | undefined {
  if (schema === deducedSchema) return undefined;
  let toRemove: FieldSet | undefined;
  let toAdd: FieldSet | undefined;
  const add = (s: FieldSet) => (toAdd = toAdd ? toAdd.union(s) : s);
  const remove = (s: FieldSet) => (toRemove = toRemove ? toRemove.union(s) : s);

  const walk = (t: TypeRef | undefined, set: FieldSet | undefined, path: PathElement[], isAtomic: boolean): void => {
    const atom = schema.resolve(t);
    if (!atom) return;
    const visit = (childType: (pe: PathElement) => TypeRef | undefined) => {
      if (!set) return;
      const handle = (pe: PathElement, isMember: boolean) => {
        const sub = set.child(pe);
        const ct = childType(pe);
        // A field the schema no longer declares cannot be reconciled: leave it as it is.
        if (!ct) return;
        walk(ct, sub, [...path, pe], isMember && !sub);
      };
      for (const c of set.children) if (!set.hasMember(c.pe)) handle(c.pe, false);
      for (const m of set.members) handle(m, true);
    };
    handleAtom<void>(atom, t, {
      invalid: () => undefined,
      scalar: () => undefined,
      list: (l) => {
        if (!isAtomic && l.elementRelationship === 'atomic') {
          remove(FieldSet.of(path));
          add(FieldSet.of(path));
          return;
        }
        visit(() => l.elementType);
      },
      map: (m) => {
        if (!isAtomic && m.elementRelationship === 'atomic') {
          if (set && set.size() > 0) {
            remove(FieldSet.of(path));
            add(FieldSet.of(path));
          }
          return;
        }
        visit((pe) => (pe.kind === 'field' ? (findField(m, pe.name)?.type ?? m.elementType) : undefined));
      },
    });
  };

  walk(tr, fieldSet, [], false);
  if (!toAdd && !toRemove) return undefined;
  let out = fieldSet;
  if (toRemove) out = out.recursiveDifference(toRemove);
  if (toAdd) out = out.union(toAdd);
  return out;
}
