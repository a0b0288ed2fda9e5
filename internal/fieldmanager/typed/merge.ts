/**
 * TypedValue.Merge (structured-merge-diff typed/merge.go): the applied configuration merged over
 * the live object. Leaves and atomic lists/maps take the right-hand value; granular maps merge
 * key by key; associative lists merge item by item, keeping the live order and placing new items
 * where the configuration puts them relative to the items both sides share. The live side may
 * hold duplicate items (kept as they are unless the configuration names them, which replaces them
 * all by one merged item); the configuration may not.
 */
import { pathElementToString, pathElementsEqual, serializePathElement, type PathElement } from '../path-element.js';
import { mapChildType, type ListType, type MapType, type Schema, type TypeRef } from '../schema.js';
import { isMap, type Value, type ValueMap } from '../value.js';
import { atomsEqual, deduceAtom, handleAtom, issue, listItemToPathElement, unresolved, validateScalar, ValidationErrors, withPrefix, type ValidationIssue } from './helpers.js';
import { setOwnKey } from '../../collections/own-key.js';

interface Result {
  out?: Value;
  errs: ValidationIssue[];
}

interface IndexedList {
  pes: PathElement[];
  /** Item by serialized element; `undefined` value marks a duplicated element. */
  observed: Map<string, Value | undefined>;
  errs: ValidationIssue[];
}

function listOf(v: Value | undefined): Value[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

function mapOf(v: Value | undefined): ValueMap | undefined {
  return isMap(v) ? v : undefined;
}

/** Merges rhs over lhs with the type tr; throws ValidationErrors when either side does not fit the type. */
export function mergeValues(schema: Schema, tr: TypeRef | undefined, lhs: Value | undefined, rhs: Value | undefined): Value | undefined {
  const index = (l: ListType, list: Value[] | undefined, allowDuplicates: boolean): IndexedList => {
    const out: IndexedList = { pes: [], observed: new Map(), errs: [] };
    (list ?? []).forEach((child, i) => {
      let pe: PathElement;
      try {
        pe = listItemToPathElement(schema, l, child);
      } catch (err) {
        out.errs.push(...issue(`element ${i}: ${(err as Error).message}`));
        return;
      }
      const key = serializePathElement(pe);
      if (out.observed.has(key)) {
        if (!allowDuplicates) {
          out.errs.push(...issue(`duplicate entries for key ${pathElementToString(pe)}`));
          return;
        }
        out.observed.set(key, undefined);
      } else {
        out.observed.set(key, child);
      }
      out.pes.push(pe);
    });
    return out;
  };

  const item = (l: ListType, pe: PathElement, lChild: Value | undefined, rChild: Value | undefined): Result => {
    const r = node(l.elementType, lChild, rChild);
    withPrefix(r.errs, pathElementToString(pe));
    return r;
  };

  const visitList = (l: ListType, lhsList: Value[] | undefined, rhsList: Value[] | undefined): Result => {
    const rhsIdx = index(l, rhsList, false);
    const lhsIdx = index(l, lhsList, true);
    const errs = [...rhsIdx.errs, ...lhsIdx.errs];
    if (errs.length > 0) return { errs };
    const key = serializePathElement;
    const sharedOrder = rhsIdx.pes.filter((pe) => lhsIdx.observed.has(key(pe)));
    let nextShared: PathElement | undefined = sharedOrder.shift();
    const mergedRHS = new Set<string>();
    const out: Value[] = [];
    const push = (r: Result) => {
      errs.push(...r.errs);
      if (r.out !== undefined) out.push(r.out);
    };
    const lLen = lhsIdx.pes.length;
    const rLen = rhsIdx.pes.length;
    for (let lI = 0, rI = 0; lI < lLen || rI < rLen; ) {
      if (lI < lLen && rI < rLen) {
        const pe = lhsIdx.pes[lI]!;
        if (pathElementsEqual(pe, rhsIdx.pes[rI]!)) {
          mergedRHS.add(key(pe));
          push(item(l, pe, lhsIdx.observed.get(key(pe)), rhsIdx.observed.get(key(pe))));
          lI++;
          rI++;
          nextShared = sharedOrder.shift();
          continue;
        }
        if (rhsIdx.observed.has(key(pe)) && nextShared !== undefined && !pathElementsEqual(nextShared, pe)) {
          // A shared item, but not the one this round places.
          lI++;
          continue;
        }
      }
      if (lI < lLen) {
        const pe = lhsIdx.pes[lI]!;
        if (!rhsIdx.observed.has(key(pe))) {
          // The live item itself, by position: duplicates have no single entry in `observed`.
          push(item(l, pe, lhsList![lI], undefined));
          lI++;
          continue;
        } else if (mergedRHS.has(key(pe))) {
          lI++;
          continue;
        }
      }
      if (rI < rLen) {
        const pe = rhsIdx.pes[rI]!;
        mergedRHS.add(key(pe));
        push(item(l, pe, lhsIdx.observed.get(key(pe)), rhsIdx.observed.get(key(pe))));
        rI++;
        if (nextShared !== undefined && pathElementsEqual(nextShared, pe)) nextShared = sharedOrder.shift();
      }
    }
    return out.length > 0 ? { out, errs } : { errs };
  };

  const visitMap = (m: MapType, lhsMap: ValueMap | undefined, rhsMap: ValueMap | undefined): Result => {
    const out: ValueMap = {};
    const errs: ValidationIssue[] = [];
    const one = (k: string, l: Value | undefined, r: Value | undefined) => {
      const res = node(mapChildType(m, k), l, r);
      errs.push(...withPrefix(res.errs, `.${k}`));
      if (res.out !== undefined) setOwnKey(out, k, res.out);
    };
    if (lhsMap) for (const k of Object.keys(lhsMap)) one(k, lhsMap[k], rhsMap && Object.prototype.hasOwnProperty.call(rhsMap, k) ? rhsMap[k] : undefined);
    if (rhsMap) for (const k of Object.keys(rhsMap)) if (!lhsMap || !Object.prototype.hasOwnProperty.call(lhsMap, k)) one(k, undefined, rhsMap[k]);
    return Object.keys(out).length > 0 ? { out, errs } : { errs };
  };

  const handle = (atom: Parameters<typeof handleAtom>[0], t: TypeRef | undefined, l: Value | undefined, r: Value | undefined): Result => {
    const leaf = (): Result => ({ out: r !== undefined ? r : l, errs: [] });
    return handleAtom<Result>(atom, t, {
      invalid: (m) => ({ errs: issue(m) }),
      scalar: (s) => {
        const errs = [...validateScalar(s, l, 'lhs: '), ...validateScalar(s, r, 'rhs: ')];
        return errs.length > 0 ? { errs } : leaf();
      },
      list: (lt) => {
        const ll = listOf(l);
        const rl = listOf(r);
        const emptyPromoteToLeaf = (!ll || ll.length === 0) && (!rl || rl.length === 0);
        if (lt.elementRelationship === 'atomic' || emptyPromoteToLeaf) return leaf();
        return visitList(lt, ll, rl);
      },
      map: (mt) => {
        const lm = mapOf(l);
        const rm = mapOf(r);
        const emptyPromoteToLeaf = (!lm || Object.keys(lm).length === 0) && (!rm || Object.keys(rm).length === 0);
        if (mt.elementRelationship === 'atomic' || emptyPromoteToLeaf) return leaf();
        return visitMap(mt, lm, rm);
      },
    });
  };

  const node = (t: TypeRef | undefined, l: Value | undefined, r: Value | undefined): Result => {
    if (l === undefined && r === undefined) return { errs: issue('at least one of lhs and rhs must be provided') };
    const atom = schema.resolve(t);
    if (!atom) return { errs: issue(unresolved(t)) };
    const al = deduceAtom(atom, l);
    const ar = deduceAtom(atom, r);
    if (r === undefined) return handle(al, t, l, r);
    if (l === undefined || atomsEqual(al, ar)) return handle(ar, t, l, r);
    // The two sides are of different kinds: the left is walked for its errors only.
    const first = handle(al, t, l, r);
    const second = handle(ar, t, l, r);
    return second.out !== undefined ? { out: second.out, errs: [...first.errs, ...second.errs] } : { errs: [...first.errs, ...second.errs] };
  };

  const res = node(tr, lhs, rhs);
  if (res.errs.length > 0) throw new ValidationErrors(res.errs);
  return res.out;
}
