/**
 * kube's structural defaulting (apiextensions-apiserver pkg/apiserver/schema/defaulting): a
 * property's default fills it when it is missing or a null the schema does not allow; inside
 * additionalProperties and items only non-nullable nulls are replaced. Defaults are copied, then
 * defaulted themselves.
 */
import { cloneJson, isObject, type StructuralNode } from './structural.js';
import { setOwnKey } from '../../collections/own-key.js';

/** Applies the defaults of s to x in place. */
export function applyDefaults(x: unknown, s: StructuralNode | undefined): void {
  if (s === undefined || !s.subtreeHasDefaults) return;
  if (Array.isArray(x)) {
    const items = s.items;
    if (!items) return;
    for (let i = 0; i < x.length; i++) {
      if (x[i] === null && !items.nullable) x[i] = cloneJson(items.default ?? null);
      applyDefaults(x[i], items);
    }
    return;
  }
  if (!isObject(x)) return;
  for (const [k, prop] of s.properties) {
    if (!prop.hasDefault) continue;
    const v = x[k];
    if (v === undefined || (v === null && !prop.nullable)) setOwnKey(x, k, cloneJson(prop.default));
  }
  for (const k of Object.keys(x)) {
    const prop = s.properties.get(k);
    if (prop) {
      applyDefaults(x[k], prop);
    } else if (s.additional) {
      if (x[k] === null && !s.additional.nullable) setOwnKey(x, k, cloneJson(s.additional.default ?? null));
      applyDefaults(x[k], s.additional);
    }
  }
}
