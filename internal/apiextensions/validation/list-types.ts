/**
 * The x-kubernetes-map-type, x-kubernetes-list-type and x-kubernetes-list-map-keys rules of one
 * schema node (part of kube's ValidateCustomResourceDefinitionOpenAPISchema and its
 * validateMapListKeysMapSet). Never mutate.
 */
import { childPath, forbidden, invalid, keyPath, notSupported, required, type FieldError } from '../../validation/field-error.js';
import type { JSONSchemaProps } from '../interface.js';
import type { ValidationOptions } from './options.js';
import { asSchema, isSet, itemsSchema, str } from './schema-walk.js';

/** Go renders a nil *string bad value as "null". */
function ptrValue(v: unknown): unknown {
  return isSet(v) ? v : 'null';
}

/** map-type, list-type and list-map-keys of the node s at path. */
export function validateListType(s: JSONSchemaProps, path: string, opts: ValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(s.type);
  const mapType = s['x-kubernetes-map-type'];
  const listType = s['x-kubernetes-list-type'];
  const keys = Array.isArray(s['x-kubernetes-list-map-keys']) ? s['x-kubernetes-list-map-keys'] : [];
  const items = itemsSchema(s);
  if (isSet(mapType) && type !== 'object') {
    if (!type) errs.push(required(childPath(path, 'type'), 'must be object if x-kubernetes-map-type is specified'));
    else errs.push(invalid(childPath(path, 'type'), type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (isSet(mapType) && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(notSupported(childPath(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }
  if (isSet(listType) && type !== 'array') {
    if (!type) errs.push(required(childPath(path, 'type'), 'must be array if x-kubernetes-list-type is specified'));
    else errs.push(invalid(childPath(path, 'type'), type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (opts.requireAtomicSetType && listType === 'set' && items) {
    const itemsPath = childPath(path, 'items');
    if (items.type === 'array') {
      const itemListType = items['x-kubernetes-list-type'];
      if (isSet(itemListType) && itemListType !== 'atomic') {
        errs.push(invalid(childPath(itemsPath, 'x-kubernetes-list-type'), itemListType, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
      }
    } else if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      errs.push(invalid(childPath(itemsPath, 'x-kubernetes-map-type'), ptrValue(items['x-kubernetes-list-type']), 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (isSet(listType) && listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
    errs.push(notSupported(childPath(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
  }
  if (keys.length > 0) {
    if (!isSet(listType)) errs.push(required(childPath(path, 'x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(invalid(childPath(path, 'x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (keys.length === 0) errs.push(required(childPath(path, 'x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'));
    if (!isSet(s.items)) errs.push(required(childPath(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'));
    if (isSet(s.items) && !items) errs.push(invalid(childPath(path, 'items'), s.items, 'must only have a single schema if x-kubernetes-list-type is map'));
    if (items && items.type !== 'object') {
      errs.push(invalid(childPath(path, 'items', 'type'), str(items.type), "must be object if parent array's x-kubernetes-list-type is map"));
    }
    if (items && items.type === 'object') {
      const seen = new Set<string>();
      const props = (asSchema(items.properties) ?? {}) as Record<string, unknown>;
      for (const k of keys) {
        const prop = Object.hasOwn(props, k) ? asSchema(props[k]) ?? {} : undefined;
        if (prop) {
          if (prop.type === 'array' || prop.type === 'object') {
            errs.push(invalid(childPath(keyPath(childPath(path, 'items', 'properties'), k), 'type'), str(items.type), "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
        } else {
          errs.push(invalid(childPath(path, 'x-kubernetes-list-map-keys'), keys, 'entries must all be names of item properties'));
        }
        if (seen.has(k)) errs.push(invalid(childPath(path, 'x-kubernetes-list-map-keys'), keys, 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  return errs;
}

/**
 * Items of set and map lists may not be nullable; map keys must be required or defaulted and
 * not nullable (kube's validateMapListKeysMapSet).
 */
export function validateMapListKeysMapSet(s: JSONSchemaProps, path: string): FieldError[] {
  const items = itemsSchema(s);
  const listType = s['x-kubernetes-list-type'];
  if (!items || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  if (items.nullable === true) errs.push(forbidden(childPath(path, 'items', 'nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType === 'map') {
    const requiredKeys = new Set(Array.isArray(items.required) ? items.required : []);
    const props = (asSchema(items.properties) ?? {}) as Record<string, unknown>;
    for (const k of Array.isArray(s['x-kubernetes-list-map-keys']) ? s['x-kubernetes-list-map-keys'] : []) {
      if (!Object.hasOwn(props, k)) continue;
      const prop = asSchema(props[k]) ?? {};
      const keyBase = keyPath(childPath(path, 'items', 'properties'), k);
      if (!requiredKeys.has(k) && !isSet(prop.default)) {
        errs.push(required(childPath(keyBase, 'default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
      }
      if (prop.nullable === true) errs.push(forbidden(childPath(keyBase, 'nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
    }
  }
  return errs;
}
