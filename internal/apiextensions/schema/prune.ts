/**
 * kube's structural pruning (apiextensions-apiserver pkg/apiserver/schema/pruning): fields the
 * schema does not specify are removed in place and their paths reported, except under
 * x-kubernetes-preserve-unknown-fields; apiVersion, kind and metadata of the resource root and of
 * embedded resources are kept, metadata being cut to ObjectMeta's fields as kube's objectmeta
 * coercion does (`metadata.foo` is reported like any unknown field). Afterwards
 * non-nullable nulls without a default are dropped (PruneNonNullableNullsWithoutDefaults).
 */
import { objectMetaFieldOrder } from '../../../api/meta/types.js';
import { isObject, type StructuralNode } from './structural.js';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

/** The JSON fields of metav1.ObjectMeta (what decoding an embedded metadata keeps). */
export const objectMetaFields: ReadonlySet<string> = new Set(objectMetaFieldOrder);

/**
 * The path to the value being pruned, as a stack of steps rendered only when a field is removed
 * (most requests remove nothing, so no path strings are built for them).
 */
class PathStack {
  private readonly steps: Array<string | number> = [];
  readonly removed: string[] = [];

  push(step: string | number): void {
    this.steps.push(step);
  }

  pop(): void {
    this.steps.pop();
  }

  record(key: string): void {
    let out = '';
    for (const s of this.steps) out = typeof s === 'number' ? `${out}[${s}]` : out === '' ? s : `${out}.${s}`;
    this.removed.push(out === '' ? key : `${out}.${key}`);
  }
}

/**
 * Prunes obj (the resource root) in place against root and returns the removed fields' paths,
 * sorted as kube sorts them ("spec.foo", "spec.items[0].bar").
 */
export function pruneObject(obj: Record<string, unknown>, root: StructuralNode): string[] {
  const path = new PathStack();
  if (root.preserveUnknown) skipPrune(obj, root, true, path);
  else pruneMap(obj, root, true, true, path);
  dropNonNullableNulls(obj, root);
  return path.removed.sort();
}

function pruneValue(x: unknown, s: StructuralNode | undefined, path: PathStack): void {
  if (typeof x !== 'object' || x === null) return;
  if (s?.preserveUnknown) {
    skipPrune(x, s, false, path);
    return;
  }
  if (Array.isArray(x)) {
    const items = s?.items;
    // Scalars below need no visit.
    if (s !== undefined && items !== undefined && items.type !== 'object' && items.type !== 'array' && items.type !== '') return;
    for (let i = 0; i < x.length; i++) {
      if (typeof x[i] !== 'object' || x[i] === null) continue;
      path.push(i);
      pruneValue(x[i], items, path);
      path.pop();
    }
    return;
  }
  const m = x as Record<string, unknown>;
  if (s === undefined) {
    for (const k of Object.keys(m)) {
      path.record(k);
      delete m[k];
    }
    return;
  }
  pruneMap(m, s, s.embedded, false, path);
}

function pruneMap(x: Record<string, unknown>, s: StructuralNode, embedded: boolean, root: boolean, path: PathStack): void {
  for (const k in x) {
    if (embedded && metaFields.has(k)) {
      if (k === 'metadata') pruneMeta(x[k], path);
      continue;
    }
    const child = s.properties.get(k) ?? s.additional;
    if (child) {
      const v = x[k];
      if (typeof v === 'object' && v !== null) {
        path.push(k);
        pruneValue(v, child, path);
        path.pop();
      }
    } else if (!s.additionalAllowsAny) {
      path.record(k);
      delete x[k];
    }
  }
}

function skipPrune(x: unknown, s: StructuralNode | undefined, root: boolean, path: PathStack): void {
  if (s === undefined || typeof x !== 'object' || x === null) return;
  if (Array.isArray(x)) {
    x.forEach((v, i) => {
      path.push(i);
      skipPrune(v, s.items, false, path);
      path.pop();
    });
    return;
  }
  const m = x as Record<string, unknown>;
  for (const k in m) {
    if ((s.embedded || root) && metaFields.has(k)) {
      if (k === 'metadata') pruneMeta(m[k], path);
      continue;
    }
    const prop = s.properties.get(k) ?? s.additional;
    if (prop) {
      path.push(k);
      pruneValue(m[k], prop, path);
      path.pop();
    }
  }
}

function pruneMeta(meta: unknown, path: PathStack): void {
  if (!isObject(meta)) return;
  path.push('metadata');
  for (const k of Object.keys(meta)) {
    if (!objectMetaFields.has(k)) {
      path.record(k);
      delete meta[k];
    }
  }
  path.pop();
}

function dropNonNullableNulls(x: unknown, s: StructuralNode | undefined): void {
  if (s === undefined) return;
  if (Array.isArray(x)) {
    if (s.items) for (const v of x) if (typeof v === 'object' && v !== null) dropNonNullableNulls(v, s.items);
    return;
  }
  if (!isObject(x)) return;
  for (const k in x) {
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
