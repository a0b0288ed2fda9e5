/**
 * kube's structural pruning (apiextensions-apiserver pkg/apiserver/schema/pruning): fields the
 * schema does not specify are removed in place and their paths reported, except under
 * x-kubernetes-preserve-unknown-fields; apiVersion, kind and metadata of the resource root and of
 * embedded resources are kept, embedded metadata being cut to ObjectMeta's fields. Afterwards
 * non-nullable nulls without a default are dropped (PruneNonNullableNullsWithoutDefaults).
 */
import { isObject, type StructuralNode } from './structural.js';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

/** The JSON fields of metav1.ObjectMeta (what decoding an embedded metadata keeps). */
export const objectMetaFields: ReadonlySet<string> = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);

function join(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

/**
 * Prunes obj (the resource root) in place against root and returns the removed fields' paths,
 * sorted as kube sorts them ("spec.foo", "spec.items[0].bar").
 */
export function pruneObject(obj: Record<string, unknown>, root: StructuralNode): string[] {
  const unknown: string[] = [];
  if (root.preserveUnknown) skipPrune(obj, root, '', true, unknown);
  else pruneMap(obj, root, '', true, unknown);
  dropNonNullableNulls(obj, root);
  return unknown.sort();
}

function pruneValue(x: unknown, s: StructuralNode | undefined, path: string, out: string[]): void {
  if (s?.preserveUnknown) {
    skipPrune(x, s, path, false, out);
    return;
  }
  if (Array.isArray(x)) {
    if (s === undefined) {
      x.forEach((v, i) => pruneValue(v, undefined, `${path}[${i}]`, out));
    } else {
      x.forEach((v, i) => pruneValue(v, s.items, `${path}[${i}]`, out));
    }
    return;
  }
  if (!isObject(x)) return;
  if (s === undefined) {
    for (const k of Object.keys(x)) {
      out.push(join(path, k));
      delete x[k];
    }
    return;
  }
  pruneMap(x, s, path, s.embedded, out);
}

function pruneMap(x: Record<string, unknown>, s: StructuralNode, path: string, embedded: boolean, out: string[]): void {
  for (const k of Object.keys(x)) {
    if (embedded && metaFields.has(k)) {
      if (k === 'metadata' && path !== '') pruneEmbeddedMeta(x[k], join(path, k), out);
      continue;
    }
    const prop = s.properties.get(k);
    if (prop) pruneValue(x[k], prop, join(path, k), out);
    else if (s.additional) pruneValue(x[k], s.additional, join(path, k), out);
    else if (!s.additionalAllowsAny) {
      out.push(join(path, k));
      delete x[k];
    }
  }
}

function skipPrune(x: unknown, s: StructuralNode | undefined, path: string, root: boolean, out: string[]): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    x.forEach((v, i) => skipPrune(v, s.items, `${path}[${i}]`, false, out));
    return;
  }
  if (!isObject(x)) return;
  for (const k of Object.keys(x)) {
    if ((s.embedded || root) && metaFields.has(k)) {
      if (k === 'metadata' && !root) pruneEmbeddedMeta(x[k], join(path, k), out);
      continue;
    }
    const prop = s.properties.get(k) ?? s.additional;
    if (prop) pruneValue(x[k], prop, join(path, k), out);
  }
}

function pruneEmbeddedMeta(meta: unknown, path: string, out: string[]): void {
  if (!isObject(meta)) return;
  for (const k of Object.keys(meta)) {
    if (!objectMetaFields.has(k)) {
      out.push(join(path, k));
      delete meta[k];
    }
  }
}

function dropNonNullableNulls(x: unknown, s: StructuralNode | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    if (s.items) for (const v of x) dropNonNullableNulls(v, s.items);
    return;
  }
  if (!isObject(x)) return;
  for (const k of Object.keys(x)) {
    const child = s.properties.get(k) ?? s.additional;
    if (!child) continue;
    const v = x[k];
    if (v === null) {
      if (!child.hasDefault && !child.nullable) delete x[k];
      continue;
    }
    if (typeof v === 'object') dropNonNullableNulls(v, child);
  }
}
