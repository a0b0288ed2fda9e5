/**
 * validateSchema: the checks kube's schema implies after decoding and defaulting, as FieldErrors
 * (422 Invalid): missing required lists, maps and nil-pointer structs (`Required value`, see
 * enforcement-policy.ts for which), and duplicate keys of `x-kubernetes-list-type: map` lists and
 * items of `set` lists (`Duplicate value`, see list-type.ts). The top-level `status` is skipped:
 * controllers write it and kube's handwritten status validation is what applies there.
 * `x-kubernetes-map-type` and `x-kubernetes-unions` carry no validation in kube-apiserver (they
 * steer server-side apply and handwritten union checks), so nothing is checked for them.
 */
import { type FieldError, type FieldPath, childPath, indexPath, keyPath, required } from '../field-error.js';
import { enforcesListUniqueness, enforcesRequired } from './enforcement-policy.js';
import { isJsonObject } from './json-copy.js';
import { listTypeErrors } from './list-type.js';
import { kindNode } from './schema-index.js';
import type { FieldNode, GVK, SchemaNode, StructNode } from './types.js';

function walkStruct(node: StructNode, value: Record<string, unknown>, path: FieldPath, errs: FieldError[]): void {
  for (const name of node.required) {
    const field = node.fields.get(name);
    if (field === undefined || !enforcesRequired(node, field)) continue;
    const v = value[name];
    if (v === undefined || v === null) errs.push(required(childPath(path, name), ''));
  }
  for (const key of Object.keys(value)) {
    if (path === undefined && key === 'status') continue;
    const field = node.fields.get(key);
    if (field === undefined) continue;
    walkValue(field.node, value[key], childPath(path, key), errs, node, field);
  }
}

function walkValue(node: SchemaNode, value: unknown, path: string, errs: FieldError[], owner?: StructNode, field?: FieldNode): void {
  switch (node.kind) {
    case 'struct':
      if (isJsonObject(value)) walkStruct(node, value, path, errs);
      return;
    case 'array':
      if (!Array.isArray(value)) return;
      if (node.listType !== undefined && owner !== undefined && field !== undefined && enforcesListUniqueness(owner, field)) {
        errs.push(...listTypeErrors(node, value, path));
      }
      if (node.items.kind === 'struct' || node.items.kind === 'array' || node.items.kind === 'map') {
        value.forEach((item, i) => walkValue(node.items, item, indexPath(path, i), errs));
      }
      return;
    case 'map':
      if (!isJsonObject(value)) return;
      if (node.values.kind === 'struct' || node.values.kind === 'array' || node.values.kind === 'map') {
        for (const key of Object.keys(value)) walkValue(node.values, value[key], keyPath(path, key), errs);
      }
      return;
    default:
      return;
  }
}

/**
 * The schema's field errors for obj of the given kind, in document order (required fields of a
 * struct before its children). Run it on the decoded (pruned) object after defaulting and next to
 * the kind's handwritten validation; values of the wrong type are skipped, not reported (checkDecode
 * reports those). A kind without a schema yields no errors. Never mutates obj.
 */
export function validateSchema(gvk: GVK, obj: Record<string, unknown>): FieldError[] {
  const root = kindNode(gvk);
  if (root === undefined) return [];
  const errs: FieldError[] = [];
  walkStruct(root, obj, undefined, errs);
  return errs;
}
