/**
 * The structured-merge-diff schema model (sigs.k8s.io/structured-merge-diff/v4/schema): named
 * types whose atom is a scalar, a list and/or a map; type references that may inline an atom and
 * override its element relationship. Maps are granular unless atomic; lists are atomic unless
 * associative (a set without keys, a map-list with keys).
 */
import type { Value } from './value.js';

/** How the children of a list or map relate: `atomic` replaces as a whole. */
export type ElementRelationship = 'atomic' | 'separable' | 'associative' | '';

/** A scalar kind. `untyped` accepts any scalar. */
export type ScalarKind = 'numeric' | 'string' | 'boolean' | 'untyped';

/** A reference to a type: by name, or inlined; `elementRelationship` overrides the referee's. */
export interface TypeRef {
  readonly namedType?: string;
  readonly inlined?: Atom;
  readonly elementRelationship?: ElementRelationship;
}

/** What a value of a type may be. Several may be set (a deduced type is all three). */
export interface Atom {
  readonly scalar?: ScalarKind;
  readonly list?: ListType;
  readonly map?: MapType;
}

/** A list: its element type, relationship and (for map-lists) key field names. */
export interface ListType {
  readonly elementType: TypeRef;
  readonly elementRelationship?: ElementRelationship;
  readonly keys?: readonly string[];
}

/** A struct field. `default` is the value a missing list key takes. */
export interface StructField {
  readonly name: string;
  readonly type: TypeRef;
  readonly default?: Value;
}

/** A map: named fields and/or an element type for any other key. */
export interface MapType {
  readonly fields?: readonly StructField[];
  readonly elementType?: TypeRef;
  readonly elementRelationship?: ElementRelationship;
}

const emptyAtom: Atom = {};
const fieldIndexes = new WeakMap<MapType, Map<string, StructField>>();
const overrides = new WeakMap<TypeRef, Atom>();

/** Finds a named field of a map type. */
export function findField(m: MapType, name: string): StructField | undefined {
  let index = fieldIndexes.get(m);
  if (!index) {
    index = new Map((m.fields ?? []).map((f) => [f.name, f]));
    fieldIndexes.set(m, index);
  }
  return index.get(name);
}

/** The type of the child `name` of a map: its field's type, else the element type. */
export function mapChildType(m: MapType, name: string): TypeRef | undefined {
  return findField(m, name)?.type ?? m.elementType;
}

/** True when a type reference names nothing and inlines nothing (Go's `TypeRef{}`). */
export function isEmptyTypeRef(tr: TypeRef | undefined): boolean {
  return !tr || (tr.namedType === undefined && tr.inlined === undefined);
}

/** A set of named types. Immutable once built. */
export class Schema {
  private readonly types: ReadonlyMap<string, Atom>;

  constructor(types: Iterable<readonly [string, Atom]>) {
    this.types = new Map(types);
  }

  /** The atom of a named type. */
  named(name: string): Atom | undefined {
    return this.types.get(name);
  }

  /** True when the schema defines the type. */
  has(name: string): boolean {
    return this.types.has(name);
  }

  /** Schema.Resolve: the atom a reference designates, with its relationship override applied; undefined when the named type is missing. */
  resolve(tr: TypeRef | undefined): Atom | undefined {
    if (!tr) return emptyAtom;
    let atom: Atom | undefined;
    if (tr.namedType !== undefined) {
      atom = this.types.get(tr.namedType);
      if (!atom) return undefined;
    } else {
      atom = tr.inlined ?? emptyAtom;
    }
    if (tr.elementRelationship === undefined) return atom;
    const cached = overrides.get(tr);
    if (cached) return cached;
    let out = atom;
    if (atom.map) out = { ...atom, map: { ...atom.map, elementRelationship: tr.elementRelationship } };
    else if (atom.list) out = { ...atom, list: { ...atom.list, elementRelationship: tr.elementRelationship } };
    overrides.set(tr, out);
    return out;
  }
}

/** The two shared types kube and structured-merge-diff use for values without a schema. */
export const untypedAtomicName = '__untyped_atomic_';
/** Maps granular, everything else atomic: the type of objects without a schema. */
export const untypedDeducedName = '__untyped_deduced_';

/** The atoms of the untyped types, to add to any schema that refers to them. */
export const untypedTypes: ReadonlyArray<readonly [string, Atom]> = [
  [
    untypedAtomicName,
    {
      scalar: 'untyped',
      list: { elementType: { namedType: untypedAtomicName }, elementRelationship: 'atomic' },
      map: { elementType: { namedType: untypedAtomicName }, elementRelationship: 'atomic' },
    },
  ],
  [
    untypedDeducedName,
    {
      scalar: 'untyped',
      list: { elementType: { namedType: untypedAtomicName }, elementRelationship: 'atomic' },
      map: { elementType: { namedType: untypedDeducedName }, elementRelationship: 'separable' },
    },
  ],
];

/** The schema of typed.DeducedParseableType: every value deduced, maps granular. */
export const deducedSchema = new Schema(untypedTypes);

/** The root reference of a deduced value. */
export const deducedTypeRef: TypeRef = { namedType: untypedDeducedName };

/** Parses the YAML/JSON form of a structured-merge-diff schema (`{types: [{name, map|list|scalar}]}`). */
export function schemaFromDocument(doc: unknown): Schema {
  const types = (doc as { types?: unknown[] }).types ?? [];
  const out: Array<[string, Atom]> = [];
  for (const t of types) {
    const def = t as Record<string, unknown>;
    out.push([String(def['name']), atomFromDocument(def)]);
  }
  return new Schema([...out, ...untypedTypes.filter(([n]) => !out.some(([m]) => m === n))]);
}

function relationshipFromDocument(v: unknown): ElementRelationship | undefined {
  return v === undefined ? undefined : (String(v) as ElementRelationship);
}

function typeRefFromDocument(doc: unknown): TypeRef {
  const d = (doc ?? {}) as Record<string, unknown>;
  const er = relationshipFromDocument(d['elementRelationship']);
  const base: { namedType?: string; inlined?: Atom; elementRelationship?: ElementRelationship } = {};
  if (typeof d['namedType'] === 'string') base.namedType = d['namedType'];
  else if (d['scalar'] !== undefined || d['list'] !== undefined || d['map'] !== undefined || d['untyped'] !== undefined) base.inlined = atomFromDocument(d);
  if (er !== undefined) base.elementRelationship = er;
  return base;
}

function atomFromDocument(d: Record<string, unknown>): Atom {
  const atom: { scalar?: ScalarKind; list?: ListType; map?: MapType } = {};
  if (d['scalar'] !== undefined) atom.scalar = String(d['scalar']) as ScalarKind;
  if (d['untyped'] !== undefined) {
    atom.scalar = 'untyped';
    atom.list = { elementType: { namedType: untypedAtomicName }, elementRelationship: 'atomic' };
    atom.map = { elementType: { namedType: untypedDeducedName }, elementRelationship: 'separable' };
  }
  const l = d['list'] as Record<string, unknown> | undefined;
  if (l) {
    const list: { elementType: TypeRef; elementRelationship?: ElementRelationship; keys?: string[] } = { elementType: typeRefFromDocument(l['elementType']) };
    const er = relationshipFromDocument(l['elementRelationship']);
    if (er !== undefined) list.elementRelationship = er;
    if (Array.isArray(l['keys'])) list.keys = (l['keys'] as unknown[]).map(String);
    atom.list = list;
  }
  const m = (d['map'] ?? d['struct']) as Record<string, unknown> | undefined;
  if (m) {
    const map: { fields?: StructField[]; elementType?: TypeRef; elementRelationship?: ElementRelationship } = {};
    if (Array.isArray(m['fields'])) {
      map.fields = (m['fields'] as Array<Record<string, unknown>>).map((f) => {
        const field: { name: string; type: TypeRef; default?: Value } = { name: String(f['name']), type: typeRefFromDocument(f['type']) };
        if (f['default'] !== undefined) field.default = f['default'] as Value;
        return field;
      });
    }
    if (m['elementType'] !== undefined) {
      const et = typeRefFromDocument(m['elementType']);
      if (!isEmptyTypeRef(et)) map.elementType = et;
    }
    const er = relationshipFromDocument(m['elementRelationship']);
    if (er !== undefined) map.elementRelationship = er;
    atom.map = map;
  }
  return atom;
}
