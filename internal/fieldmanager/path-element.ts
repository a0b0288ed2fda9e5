/**
 * Path elements (fieldpath.PathElement): how one step selects a child. A field of a map, the item
 * of an associative list with the given key values, the member of a set with the given value, or
 * an index. Their order, their printed form (`.spec`, `[name="a"]`, `[=1]`, `[0]`) and their
 * FieldsV1 key form (`f:spec`, `k:{"name":"a"}`, `v:1`, `i:0`) follow structured-merge-diff.
 */
import { compareStrings, compareValues, goJSON, goJSONString, valueToString, valuesEqual, type Value } from './value.js';

/** One key field of an associative list item. Key lists are kept sorted by name. */
export type KeyField = readonly [name: string, value: Value];

/** A step from a value to one of its children. */
export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly key: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: Value }
  | { readonly kind: 'index'; readonly index: number };

/** A path from the root of an object to one field. */
export type Path = readonly PathElement[];

/** A field-name element. */
export function fieldElement(name: string): PathElement {
  return { kind: 'field', name };
}

/** A key element; the fields are sorted by name as structured-merge-diff keeps them. */
export function keyElement(fields: Iterable<KeyField>): PathElement {
  return { kind: 'key', key: [...fields].sort((a, b) => compareStrings(a[0], b[0])) };
}

const kindRank = { field: 0, key: 1, value: 2, index: 3 } as const;

function compareKeys(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const c = compareStrings(a[i]![0], b[i]![0]);
    if (c !== 0) return c;
    const d = compareValues(a[i]![1], b[i]![1]);
    if (d !== 0) return d;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** PathElement.Compare: fields < keys < values < indexes, then by content. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return kindRank[a.kind] < kindRank[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as typeof a).name);
    case 'key':
      return compareKeys(a.key, (b as typeof a).key);
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index': {
      const j = (b as typeof a).index;
      return a.index < j ? -1 : a.index > j ? 1 : 0;
    }
  }
}

/** PathElement.Equals. */
export function pathElementsEqual(a: PathElement, b: PathElement): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'field':
      return a.name === (b as typeof a).name;
    case 'index':
      return a.index === (b as typeof a).index;
    case 'value':
      return valuesEqual(a.value, (b as typeof a).value);
    case 'key': {
      const k = (b as typeof a).key;
      if (k.length !== a.key.length) return false;
      return a.key.every((f, i) => f[0] === k[i]![0] && valuesEqual(f[1], k[i]![1]));
    }
  }
}

/** PathElement.String: `.name`, `[k=v,...]`, `[=v]`, `[i]`. */
export function pathElementToString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.key.map(([k, v]) => `${k}=${valueToString(v)}`).join(',')}]`;
    case 'value':
      return `[=${valueToString(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}

/** Path.String: the elements' strings concatenated (`.spec.containers[name="a"].image`). */
export function pathToString(path: Path): string {
  return path.map(pathElementToString).join('');
}

/** The FieldsV1 key of an element: `f:name`, `k:{"a":1}`, `v:"x"`, `i:0`. */
export function serializePathElement(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `f:${pe.name}`;
    case 'key':
      return `k:{${pe.key.map(([k, v]) => `${goJSONString(k)}:${goJSON(v)}`).join(',')}}`;
    case 'value':
      return `v:${goJSON(pe.value)}`;
    case 'index':
      return `i:${pe.index}`;
  }
}

/** Thrown for a FieldsV1 key whose type letter is unknown; readers skip such keys. */
export class UnknownPathElementTypeError extends Error {
  constructor(key: string) {
    super(`unknown path element type: ${key}`);
    this.name = 'UnknownPathElementTypeError';
  }
}

/** Parses a FieldsV1 key back into a path element; throws on malformed keys. */
export function deserializePathElement(s: string): PathElement {
  if (s.length < 2) throw new Error('key must be 2 characters long:');
  if (s[1] !== ':') throw new Error(`missing colon: ${s}`);
  const body = s.slice(2);
  switch (s[0]) {
    case 'f':
      return { kind: 'field', name: body };
    case 'v':
      return { kind: 'value', value: JSON.parse(body) as Value };
    case 'k': {
      const parsed = JSON.parse(body) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`invalid key: ${s}`);
      return keyElement(Object.entries(parsed as Record<string, Value>));
    }
    case 'i': {
      if (!/^[+-]?\d+$/.test(body)) throw new Error(`invalid index: ${s}`);
      return { kind: 'index', index: Number.parseInt(body, 10) };
    }
    default:
      throw new UnknownPathElementTypeError(s);
  }
}
