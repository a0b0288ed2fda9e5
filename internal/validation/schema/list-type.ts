/**
 * Uniqueness of `x-kubernetes-list-type: set` items and `map` keys, as apiextensions-apiserver's
 * listtype validation checks them: the first repeat of each value is reported once, as
 * `Duplicate value` at `path[i]`, the bad value being the item (sets) or the key fields present in
 * it (maps), rendered as Go's `%#v` renders unstructured values.
 */
import { type FieldError, duplicate, indexPath, invalid, omittedValue } from '../field-error.js';
import { goSharpV } from './go-value-format.js';
import { isJsonObject } from './json-copy.js';
import type { ArrayNode } from './types.js';

/** Marks a list-map item that lacks the key field (Go's unspecifiedKeyValue). */
const unspecified = Symbol('unspecified');

/** A comparison key: scalars by type and value, compounds by their JSON with sorted keys (json.Marshal). */
function identity(value: unknown): string {
  if (value === unspecified) return 'u';
  if (value === null || value === undefined) return 'n';
  if (typeof value === 'string') return `s${value}`;
  if (typeof value === 'number' || typeof value === 'bigint') return `d${String(value)}`;
  if (typeof value === 'boolean') return `b${String(value)}`;
  return `c${canonicalJson(value)}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonObject(value)) {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Indexes of the first repeat of every value seen more than once (validateListSet). */
function firstRepeats(values: readonly unknown[]): number[] {
  const seen = new Map<string, number>();
  const out: number[] = [];
  values.forEach((v, i) => {
    const id = identity(v);
    const times = seen.get(id) ?? 0;
    if (times === 1) out.push(i);
    seen.set(id, times + 1);
  });
  return out;
}

/**
 * A Duplicate error whose bad value is a composite: the Go rendering is carried as the detail, with
 * the value itself omitted, so the message and StatusCause read `Duplicate value: map[...]{...}`
 * exactly as kube's do (field-error.ts renders composites as JSON otherwise).
 */
function duplicateComposite(path: string, value: unknown): FieldError {
  return { type: 'FieldValueDuplicate', field: path, badValue: omittedValue, detail: goSharpV(value) };
}

function duplicateOf(path: string, value: unknown): FieldError {
  return isJsonObject(value) || Array.isArray(value) ? duplicateComposite(path, value) : duplicate(path, value);
}

/** The uniqueness errors of one list with list-type map or set (none for other lists). */
export function listTypeErrors(node: ArrayNode, items: readonly unknown[], path: string): FieldError[] {
  if (node.listType === 'set') {
    return firstRepeats(items).map((i) => duplicateOf(indexPath(path, i), items[i] ?? null));
  }
  if (node.listType !== 'map' || node.listMapKeys === undefined) return [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item !== null && item !== undefined && !isJsonObject(item)) {
      return [invalid(indexPath(path, i), item, 'must be an object for an array of list-type map')];
    }
  }
  if (items.length <= 1) return [];
  const keyFields = node.listMapKeys;
  if (keyFields.length === 1) {
    const keyField = keyFields[0] as string;
    const keys = items.map((item) => (isJsonObject(item) && Object.prototype.hasOwnProperty.call(item, keyField) ? item[keyField] : unspecified));
    return firstRepeats(keys).map((i) => {
      const key = keys[i];
      return duplicateComposite(indexPath(path, i), key === unspecified ? {} : { [keyField]: key });
    });
  }
  const keys = items.map((item) => {
    const key: Record<string, unknown> = {};
    if (isJsonObject(item)) for (const k of keyFields) if (Object.prototype.hasOwnProperty.call(item, k)) key[k] = item[k];
    return key;
  });
  return firstRepeats(keys).map((i) => duplicateComposite(indexPath(path, i), keys[i]));
}
