/**
 * Pieces every typed walk shares (structured-merge-diff typed/helpers.go): validation errors with
 * their printed paths, deducing which part of a multi-kind atom a value uses, and turning a list
 * item into its path element (key fields with their schema defaults, or the set value).
 */
import { keyElement, type KeyField, type PathElement } from '../path-element.js';
import { findField, type Atom, type ListType, type MapType, type Schema, type ScalarKind, type TypeRef } from '../schema.js';
import { isMap, isScalar, type Value, type ValueMap } from '../value.js';

/** One schema violation; `path` is the printed path (`.spec.containers[name="a"]`). */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** typed.ValidationErrors: one or more violations, printed as structured-merge-diff prints them. */
export class ValidationErrors extends Error {
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[]) {
    super(formatIssues(issues));
    this.name = 'ValidationErrors';
    this.issues = issues;
  }
}

function formatIssue(i: ValidationIssue): string {
  return i.path === '' ? i.message : `${i.path}: ${i.message}`;
}

function formatIssues(issues: readonly ValidationIssue[]): string {
  if (issues.length === 1) return formatIssue(issues[0]!);
  return ['errors:', ...issues.map((i) => `  ${formatIssue(i)}`)].join('\n');
}

/** A single error with no path yet. */
export function issue(message: string): ValidationIssue[] {
  return [{ path: '', message }];
}

/** Prefixes the paths of issues raised below one path element (mutates and returns them). */
export function withPrefix(issues: ValidationIssue[], prefix: string): ValidationIssue[] {
  for (const i of issues) i.path = prefix + i.path;
  return issues;
}

/** Go's %v of a value in error messages (close enough: JSON). */
export function describe(v: Value): string {
  if (isMap(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${describe(v[k]!)}`).join(' ')}]`;
  if (Array.isArray(v)) return `[${v.map(describe).join(' ')}]`;
  return v === null ? '<nil>' : String(v);
}

/** deduceAtom: narrows a multi-kind atom to the kind of the value (absent and null keep it whole). */
export function deduceAtom(atom: Atom, v: Value | undefined): Atom {
  if (v === undefined || v === null) return atom;
  if (isScalar(v)) return atom.scalar ? { scalar: atom.scalar } : atom;
  if (Array.isArray(v)) return atom.list ? { list: atom.list } : atom;
  return atom.map ? { map: atom.map } : atom;
}

/** Atom equality for deduced atoms of one source atom. */
export function atomsEqual(a: Atom, b: Atom): boolean {
  return a.scalar === b.scalar && a.list === b.list && a.map === b.map;
}

/** The handlers a walk gives handleAtom; the first kind present wins (map, scalar, list). */
export interface AtomHandler<R> {
  map(t: MapType): R;
  scalar(t: ScalarKind): R;
  list(t: ListType): R;
  invalid(message: string): R;
}

/** handleAtom: dispatches on the atom's kind. */
export function handleAtom<R>(atom: Atom, tr: TypeRef | undefined, h: AtomHandler<R>): R {
  if (atom.map) return h.map(atom.map);
  if (atom.scalar) return h.scalar(atom.scalar);
  if (atom.list) return h.list(atom.list);
  const name = tr?.namedType !== undefined ? `named type: ${tr.namedType}` : 'inlined';
  return h.invalid(`schema error: invalid atom: ${name}`);
}

/** The resolve error message for a reference. */
export function unresolved(tr: TypeRef | undefined): string {
  return `schema error: no type found matching: ${tr?.namedType ?? 'inlined type'}`;
}

/** validateScalar: null and absent are valid everywhere. */
export function validateScalar(t: ScalarKind, v: Value | undefined, prefix: string): ValidationIssue[] {
  if (v === undefined || v === null) return [];
  switch (t) {
    case 'numeric':
      return typeof v === 'number' ? [] : issue(`${prefix}expected numeric (int or float), got ${goTypeName(v)}`);
    case 'string':
      return typeof v === 'string' ? [] : issue(`${prefix}expected string, got ${describe(v)}`);
    case 'boolean':
      return typeof v === 'boolean' ? [] : issue(`${prefix}expected boolean, got ${describe(v)}`);
    case 'untyped':
      return isScalar(v) ? [] : issue(`${prefix}expected any scalar, got ${describe(v)}`);
    default:
      return issue(`${prefix}unexpected scalar type in schema: ${String(t)}`);
  }
}

function goTypeName(v: Value): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** The list behind a value: null is an empty list; anything else that is not a list is an error. */
export function asList(v: Value | undefined): { list?: Value[]; error?: string } {
  if (v === undefined || v === null) return {};
  if (!Array.isArray(v)) return { error: `expected list, got ${describe(v)}` };
  return { list: v };
}

/** The map behind a value: null is an empty map; anything else that is not a map is an error. */
export function asMap(v: Value | undefined): { map?: ValueMap; error?: string } {
  if (v === undefined) return { error: 'expected map, got nil' };
  if (v === null) return {};
  if (!isMap(v)) return { error: `expected map, got ${describe(v)}` };
  return { map: v };
}

function keyDefault(schema: Schema, list: ListType, fieldName: string): { value?: Value; error?: string } {
  const atom = schema.resolve(list.elementType);
  if (!atom) return { error: 'failed to find list element type in schema' };
  if (!atom.map) return { error: 'list element is not a map' };
  const field = findField(atom.map, fieldName);
  if (!field) return { error: 'no field with that name' };
  return field.default === undefined ? {} : { value: field.default };
}

/** listItemToPathElement: the key (map-lists, with schema defaults for missing keys) or value (sets) of an item. Throws an Error with kube's message. */
export function listItemToPathElement(schema: Schema, list: ListType, child: Value): PathElement {
  if (list.elementRelationship !== 'associative') throw new Error('invalid indexing of non-associative list');
  const keys = list.keys ?? [];
  if (keys.length > 0) {
    if (child === null) throw new Error('associative list with keys may not have a null element');
    if (!isMap(child)) throw new Error('associative list with keys may not have non-map elements');
    const fields: KeyField[] = [];
    for (const name of keys) {
      if (Object.prototype.hasOwnProperty.call(child, name)) {
        fields.push([name, child[name]!]);
        continue;
      }
      const def = keyDefault(schema, list, name);
      if (def.error) throw new Error(`couldn't find default value for ${name}: ${def.error}`);
      if (def.value === undefined) throw new Error(`associative list with keys has an element that omits key field "${name}" (and doesn't have default value)`);
      fields.push([name, def.value]);
    }
    return keyElement(fields);
  }
  if (isMap(child)) throw new Error("associative list without keys has an element that's a map type");
  if (Array.isArray(child)) throw new Error('not supported: associative list with lists as elements');
  if (child === null) throw new Error("associative list without keys has an element that's an explicit null");
  return { kind: 'value', value: child };
}
