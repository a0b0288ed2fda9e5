/**
 * TypedValue.RemoveItems and ExtractItems (structured-merge-diff typed/remove.go): a copy of a
 * value without (or with only) the fields of a set. A map or list left with nothing becomes null,
 * as structured-merge-diff leaves it; atomic lists and maps are removed or extracted whole.
 */
import type { FieldSet } from '../field-set.js';
import type { PathElement } from '../path-element.js';
import { findField, type Schema, type TypeRef } from '../schema.js';
import { isMap, type Value, type ValueMap } from '../value.js';
import { deduceAtom, handleAtom, listItemToPathElement } from './helpers.js';
import { setOwnKey } from '../../collections/own-key.js';

/** The value without the set's fields (extract false), or with only them (extract true). Never mutates value. */
export function removeItems(schema: Schema, tr: TypeRef | undefined, value: Value, toRemove: FieldSet, extract: boolean): Value {
  const resolved = schema.resolve(tr);
  if (!resolved) return null;
  const out = handleAtom<Value | undefined>(deduceAtom(resolved, value), tr, {
    invalid: () => undefined,
    scalar: () => value,
    list: (l) => {
      if (!Array.isArray(value) || value.length === 0) return undefined;
      if (l.elementRelationship === 'atomic') return extract ? value : undefined;
      const items: Value[] = [];
      for (let item of value) {
        let pe: PathElement;
        try {
          pe = listItemToPathElement(schema, l, item);
        } catch {
          continue;
        }
        const sub = toRemove.withPrefix(pe);
        const inSubpaths = !sub.empty();
        const has = toRemove.has([pe]);
        if (extract) {
          if (inSubpaths) item = removeItems(schema, l.elementType, item, sub, extract);
          if (has || inSubpaths) items.push(item);
        } else {
          if (has) continue;
          if (inSubpaths) item = removeItems(schema, l.elementType, item, sub, extract);
          items.push(item);
        }
      }
      return items.length > 0 ? items : undefined;
    },
    map: (m) => {
      if (!isMap(value) || Object.keys(value).length === 0) return undefined;
      if (m.elementRelationship === 'atomic') return extract ? value : undefined;
      const out: ValueMap = {};
      for (const k of Object.keys(value)) {
        let val: Value = value[k]!;
        const pe: PathElement = { kind: 'field', name: k };
        const fieldType = findField(m, k)?.type ?? m.elementType;
        if (toRemove.has([pe])) {
          // structured-merge-diff extracts the whole subtree here, passing the set down unchanged.
          if (extract) setOwnKey(out, k, removeItems(schema, fieldType, val, toRemove, extract));
          continue;
        }
        const sub = toRemove.withPrefix(pe);
        if (!sub.empty()) val = removeItems(schema, fieldType, val, sub, extract);
        else if (extract) continue;
        setOwnKey(out, k, val);
      }
      return Object.keys(out).length > 0 ? out : undefined;
    },
  });
  return out === undefined ? null : out;
}
