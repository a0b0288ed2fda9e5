/**
 * TypedValue.Compare (structured-merge-diff typed/compare.go): which fields the right-hand object
 * added, removed or modified relative to the left. Leaves compare by value; a granular map or list
 * that appears or disappears is itself added or removed. An item that is duplicated on either side
 * is compared as a whole (all its occurrences), so duplicates are owned as one opaque item.
 */
import { FieldSet } from '../field-set.js';
import { pathElementToString, serializePathElement, type PathElement } from '../path-element.js';
import { mapChildType, type Atom, type ListType, type Schema, type TypeRef } from '../schema.js';
import { isMap, valuesEqual, type Value, type ValueMap } from '../value.js';
import { atomsEqual, deduceAtom, handleAtom, issue, listItemToPathElement, unresolved, validateScalar, ValidationErrors, withPrefix, type ValidationIssue } from './helpers.js';

/** The result of Compare: no path is in more than one set. */
export interface Comparison {
  removed: FieldSet;
  modified: FieldSet;
  added: FieldSet;
}

/** True when the comparison found no difference. */
export function isSame(c: Comparison): boolean {
  return c.removed.empty() && c.modified.empty() && c.added.empty();
}

/** Comparison.FilterFields: applies a filter to the three sets (in place, as kube does). */
export function filterComparison(c: Comparison, filter: ((s: FieldSet) => FieldSet) | undefined): Comparison {
  if (!filter) return c;
  c.removed = filter(c.removed);
  c.modified = filter(c.modified);
  c.added = filter(c.added);
  return c;
}

/** Compares lhs (before) with rhs (after); throws ValidationErrors when neither side fits a scalar type or list keys cannot be computed. */
export function compareValues(schema: Schema, tr: TypeRef | undefined, lhs: Value | undefined, rhs: Value | undefined): Comparison {
  const c: Comparison = { removed: new FieldSet(), modified: new FieldSet(), added: new FieldSet() };

  const leaf = (path: PathElement[], l: Value | undefined, r: Value | undefined) => {
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
    else if (!valuesEqual(r, l)) c.modified.insert(path);
  };

  const visitList = (lt: ListType, l: Value[] | undefined, r: Value[] | undefined, path: PathElement[]): ValidationIssue[] => {
    const errs: ValidationIssue[] = [];
    const order: PathElement[] = [];
    const lValues = new Map<string, Value[]>();
    const rValues = new Map<string, Value[]>();
    const gather = (list: Value[] | undefined, into: Map<string, Value[]>, other?: Map<string, Value[]>) => {
      (list ?? []).forEach((child, i) => {
        let pe: PathElement;
        try {
          pe = listItemToPathElement(schema, lt, child);
        } catch (err) {
          errs.push(...issue(`element ${i}: ${(err as Error).message}`));
          return;
        }
        const k = serializePathElement(pe);
        const seen = into.get(k);
        if (seen) seen.push(child);
        else {
          into.set(k, [child]);
          if (!other || !other.has(k)) order.push(pe);
        }
      });
    };
    gather(l, lValues);
    gather(r, rValues, lValues);
    for (const pe of order) {
      const k = serializePathElement(pe);
      const lList = lValues.get(k) ?? [];
      const rList = rValues.get(k) ?? [];
      const itemPath = [...path, pe];
      const item = (lv: Value | undefined, rv: Value | undefined) => errs.push(...withPrefix(node(lt.elementType, lv, rv, itemPath), pathElementToString(pe)));
      if (lList.length <= 1 && rList.length <= 1) {
        item(lList[0], rList[0]);
      } else if (lList.length >= 2 && rList.length >= 2) {
        if (lList.length !== rList.length || lList.some((v, i) => !valuesEqual(v, rList[i]!))) c.modified.insert(itemPath);
      } else if (lList.length >= 2) {
        if (rList.length !== 0) item(undefined, rList[0]);
        c.removed.insert(itemPath);
      } else {
        if (lList.length !== 0) item(lList[0], undefined);
        c.added.insert(itemPath);
      }
    }
    return errs;
  };

  const visitMap = (m: Parameters<typeof mapChildType>[0], l: ValueMap | undefined, r: ValueMap | undefined, path: PathElement[]): ValidationIssue[] => {
    const errs: ValidationIssue[] = [];
    const one = (k: string, lv: Value | undefined, rv: Value | undefined) =>
      errs.push(...withPrefix(node(mapChildType(m, k), lv, rv, [...path, { kind: 'field', name: k }]), `.${k}`));
    if (l) for (const k of Object.keys(l)) one(k, l[k], r && Object.prototype.hasOwnProperty.call(r, k) ? r[k] : undefined);
    if (r) for (const k of Object.keys(r)) if (!l || !Object.prototype.hasOwnProperty.call(l, k)) one(k, undefined, r[k]);
    return errs;
  };

  /** Handles one atom; reports whether it was treated as a leaf. */
  const handle = (atom: Atom, t: TypeRef | undefined, l: Value | undefined, r: Value | undefined, path: PathElement[]): { errs: ValidationIssue[]; leaf: boolean } => {
    const asLeaf = () => {
      leaf(path, l, r);
      return { errs: [], leaf: true };
    };
    return handleAtom(atom, t, {
      invalid: (msg) => ({ errs: issue(msg), leaf: false }),
      scalar: (s) => {
        const lerrs = validateScalar(s, l, 'lhs: ');
        const rerrs = validateScalar(s, r, 'rhs: ');
        if (lerrs.length > 0 && rerrs.length > 0) return { errs: [...lerrs, ...rerrs], leaf: false };
        return asLeaf();
      },
      list: (lt) => {
        const ll = Array.isArray(l) ? l : undefined;
        const rl = Array.isArray(r) ? r : undefined;
        const emptyPromoteToLeaf = (!ll || ll.length === 0) && (!rl || rl.length === 0);
        if (lt.elementRelationship === 'atomic' || emptyPromoteToLeaf) return asLeaf();
        return { errs: visitList(lt, ll, rl, path), leaf: false };
      },
      map: (mt) => {
        const lm = isMap(l) ? l : undefined;
        const rm = isMap(r) ? r : undefined;
        const emptyPromoteToLeaf = (!lm || Object.keys(lm).length === 0) && (!rm || Object.keys(rm).length === 0);
        if (mt.elementRelationship === 'atomic' || emptyPromoteToLeaf) return asLeaf();
        return { errs: visitMap(mt, lm, rm, path), leaf: false };
      },
    });
  };

  const node = (t: TypeRef | undefined, l: Value | undefined, r: Value | undefined, path: PathElement[]): ValidationIssue[] => {
    if (l === undefined && r === undefined) return issue('at least one of lhs and rhs must be provided');
    const atom = schema.resolve(t);
    if (!atom) return issue(unresolved(t));
    const al = deduceAtom(atom, l);
    const ar = deduceAtom(atom, r);
    let res: { errs: ValidationIssue[]; leaf: boolean };
    if (r === undefined) res = handle(al, t, l, r, path);
    else if (l === undefined || atomsEqual(al, ar)) res = handle(ar, t, l, r, path);
    else {
      const first = handle(al, t, l, r, path);
      const second = handle(ar, t, l, r, path);
      res = { errs: [...first.errs, ...second.errs], leaf: second.leaf };
    }
    if (!res.leaf) {
      if (l === undefined) c.added.insert(path);
      else if (r === undefined) c.removed.insert(path);
    }
    return res.errs;
  };

  const errs = node(tr, lhs, rhs, []);
  if (errs.length > 0) throw new ValidationErrors(errs);
  return c;
}
