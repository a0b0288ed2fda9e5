/**
 * x-kubernetes-list-type set and map uniqueness over a whole object (kube's
 * ValidateListSetsAndMaps): the first repeat of each item or key is a Duplicate at its index.
 * Map values are addressed with kube's key syntax here (`spec.byName[a].ports[1]`).
 */
import { indexPath, keyPath, type FieldError } from '../../validation/field-error.js';
import { listTypeErrors } from '../../validation/schema/list-type.js';
import type { ArrayNode } from '../../validation/schema/types.js';
import { isObject, type StructuralNode } from './structural.js';

const arrayNodes = new WeakMap<StructuralNode, ArrayNode>();

function arrayNodeOf(s: StructuralNode): ArrayNode {
  let n = arrayNodes.get(s);
  if (!n) {
    n = { kind: 'array', goType: '[]interface {}', items: { kind: 'any', goType: 'interface {}' }, listType: s.listType, listMapKeys: s.listMapKeys };
    arrayNodes.set(s, n);
  }
  return n;
}

/** The set/map uniqueness errors of x under s, at path (undefined: the root). */
export function listSetAndMapErrors(x: unknown, s: StructuralNode | undefined, path: string | undefined, out: FieldError[] = []): FieldError[] {
  if (!s || !s.subtreeHasListTypes) return out;
  if (Array.isArray(x)) {
    if ((s.listType === 'set' || s.listType === 'map') && x.length > 1 && !distinctScalars(x)) {
      out.push(...listTypeErrors(arrayNodeOf(s), x, path ?? ''));
    }
    const items = s.items;
    if (items?.subtreeHasListTypes) x.forEach((v, i) => listSetAndMapErrors(v, items, indexPath(path, i), out));
    return out;
  }
  if (!isObject(x)) return out;
  for (const k in x) {
    const prop = s.properties.get(k);
    if (prop) {
      if (prop.subtreeHasListTypes) listSetAndMapErrors(x[k], prop, path === undefined ? k : `${path}.${k}`, out);
    } else if (s.additional?.subtreeHasListTypes) listSetAndMapErrors(x[k], s.additional, keyPath(path, k), out);
  }
  return out;
}

/** The common case of a set: strings (or numbers) all different; anything else takes the full check. */
function distinctScalars(items: readonly unknown[]): boolean {
  const kind = typeof items[0];
  if (kind !== 'string' && kind !== 'number') return false;
  for (const v of items) if (typeof v !== kind) return false;
  return new Set(items).size === items.length;
}
