/**
 * TypedValue.ToFieldSet (structured-merge-diff typed/tofieldset.go): the set of every leaf and
 * item a value mentions. Scalars and atomic lists/maps are members; items of associative lists
 * are members with their children; map entries are members unless they are named struct fields
 * (those are members only when null or an empty map); an item that appears twice is a member
 * without children.
 */
import { FieldSet } from '../field-set.js';
import { serializePathElement, type PathElement } from '../path-element.js';
import { findField, mapChildType, type Schema, type TypeRef } from '../schema.js';
import { isMap, type Value } from '../value.js';
import { asList, asMap, deduceAtom, handleAtom, listItemToPathElement } from './helpers.js';

function itemElement(schema: Schema, l: Parameters<typeof listItemToPathElement>[1], child: Value): PathElement | undefined {
  try {
    return listItemToPathElement(schema, l, child);
  } catch {
    return undefined;
  }
}

/** The field set of a value (which should already be valid for the type). */
export function toFieldSet(schema: Schema, tr: TypeRef | undefined, value: Value): FieldSet {
  const set = new FieldSet();
  const walk = (t: TypeRef | undefined, v: Value, path: PathElement[]): void => {
    const resolved = schema.resolve(t);
    if (!resolved) return;
    handleAtom<void>(deduceAtom(resolved, v), t, {
      invalid: () => undefined,
      scalar: () => set.insert(path),
      list: (l) => {
        if (l.elementRelationship === 'atomic') {
          set.insert(path);
          return;
        }
        const { list } = asList(v);
        if (!list) return;
        const pes = list.map((child) => itemElement(schema, l, child));
        const seen = new Set<string>();
        const duplicates = new Set<string>();
        pes.forEach((pe) => {
          if (!pe) return;
          const key = serializePathElement(pe);
          if (seen.has(key)) {
            if (!duplicates.has(key)) {
              set.insert([...path, pe]);
              duplicates.add(key);
            }
          } else seen.add(key);
        });
        pes.forEach((pe, i) => {
          if (!pe || duplicates.has(serializePathElement(pe))) return;
          const childPath = [...path, pe];
          walk(l.elementType, list[i]!, childPath);
          set.insert(childPath);
        });
      },
      map: (m) => {
        if (m.elementRelationship === 'atomic') {
          set.insert(path);
          return;
        }
        const { map } = asMap(v);
        if (!map) return;
        for (const key of Object.keys(map)) {
          const childType = mapChildType(m, key);
          if (!childType) return;
          const child = map[key]!;
          const childPath = [...path, { kind: 'field', name: key } as PathElement];
          walk(childType, child, childPath);
          if (child === null || (isMap(child) && Object.keys(child).length === 0)) set.insert(childPath);
          else if (!findField(m, key)) set.insert(childPath);
        }
      },
    });
  };
  walk(tr, value, []);
  return set;
}
