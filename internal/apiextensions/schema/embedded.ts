/**
 * Checks of x-kubernetes-embedded-resource values (kube's schema/objectmeta Validate): apiVersion
 * and kind are required strings (apiVersion a valid group/version), metadata is validated as
 * ObjectMeta with path-segment names, namespace optional. The resource root itself is left to the
 * resource's strategy.
 */
import type { ObjectMeta } from '../../../api/meta/types.js';
import { invalid, keyPath, indexPath, required, type FieldError } from '../../validation/field-error.js';
import { nameIsPathSegment, validateObjectMeta } from '../../registry/generic/object-meta-validation.js';
import { isObject, type StructuralNode } from './structural.js';

function child(path: string | undefined, name: string): string {
  return path === undefined ? name : `${path}.${name}`;
}

function embeddedErrors(path: string | undefined, x: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  if (!('apiVersion' in x)) errs.push(required(child(path, 'apiVersion'), 'must not be empty'));
  if (!('kind' in x)) errs.push(required(child(path, 'kind'), 'must not be empty'));
  for (const [k, v] of Object.entries(x)) {
    if (k === 'apiVersion') {
      const p = child(path, k);
      if (typeof v !== 'string') errs.push(invalid(p, v, 'must be a string'));
      else if (v.length === 0) errs.push(invalid(p, v, 'must not be empty'));
      else if (v.split('/').length > 2) errs.push(invalid(p, v, `unexpected GroupVersion string: ${v}`));
    } else if (k === 'kind') {
      const p = child(path, k);
      if (typeof v !== 'string') errs.push(invalid(p, v, 'must be a string'));
      else if (v.length === 0) errs.push(invalid(p, v, 'must not be empty'));
    } else if (k === 'metadata') {
      errs.push(...metadataErrors(child(path, k), v));
    }
  }
  return errs;
}

function metadataErrors(path: string, v: unknown): FieldError[] {
  if (v === null || v === undefined) return [];
  if (!isObject(v)) return [invalid(path, v, `invalid metadata type: expected map`)];
  const meta = { ...v } as ObjectMeta;
  if (!meta.name) meta.name = 'fakename';
  const errs = validateObjectMeta(meta, typeof meta.namespace === 'string' && meta.namespace.length > 0, nameIsPathSegment);
  return errs.map((e) => (e.field.startsWith('metadata') ? { ...e, field: path + e.field.slice('metadata'.length) } : e));
}

/** The embedded-resource errors of x under s, at path (undefined: the root). */
export function embeddedResourceErrors(x: unknown, s: StructuralNode | undefined, path: string | undefined, out: FieldError[] = []): FieldError[] {
  if (!s || !s.subtreeHasEmbedded) return out;
  if (Array.isArray(x)) {
    if (s.items) x.forEach((v, i) => embeddedResourceErrors(v, s.items, indexPath(path, i), out));
    return out;
  }
  if (!isObject(x)) return out;
  if (s.embedded) out.push(...embeddedErrors(path, x));
  for (const k of Object.keys(x)) {
    const prop = s.properties.get(k);
    if (prop) embeddedResourceErrors(x[k], prop, child(path, k), out);
    else if (s.additional) embeddedResourceErrors(x[k], s.additional, keyPath(path, k), out);
  }
  return out;
}
