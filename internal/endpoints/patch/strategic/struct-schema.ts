/**
 * A PatchSchema that behaves as kube's PatchMetaFromStruct does for a Go type described by
 * PatchMetaDefinitions: fields found by JSON name (case-insensitively, as encoding/json does),
 * maps looked through to their values, and kube's errors for everything else.
 */
import { errPatch } from './errors.js';
import type { PatchLookup, PatchMeta, PatchMetaDefinition, PatchSchema } from './types.js';

/** A Go type as far as patch metadata needs it. */
type GoFieldType =
  | { readonly k: 'struct'; readonly def: string }
  | { readonly k: 'ptr'; readonly elem: GoFieldType }
  | { readonly k: 'slice'; readonly elem: GoFieldType }
  | { readonly k: 'map'; readonly elem: GoFieldType }
  | { readonly k: 'scalar'; readonly kind: string }
  | { readonly k: 'interface' };

const scalarKinds: Readonly<Record<string, string>> = { s: 'string', b: 'bool', i32: 'int32', i64: 'int64', f32: 'float32', f64: 'float64' };

/** Parses a type expression of api/gen/patch-meta.ts. */
function parseType(expr: string): GoFieldType {
  if (expr.startsWith('*')) return { k: 'ptr', elem: parseType(expr.slice(1)) };
  if (expr.startsWith('[]')) return { k: 'slice', elem: parseType(expr.slice(2)) };
  if (expr.startsWith('{}')) return { k: 'map', elem: parseType(expr.slice(2)) };
  if (expr.startsWith('@')) return { k: 'struct', def: expr.slice(1) };
  if (expr === 'byte') return { k: 'slice', elem: { k: 'scalar', kind: 'uint8' } };
  if (expr === 'any') return { k: 'interface' };
  const kind = scalarKinds[expr];
  if (kind === undefined) throw new Error(`unknown patch metadata type expression ${JSON.stringify(expr)}`);
  return { k: 'scalar', kind };
}

/** reflect.Kind's name for the type. */
function kindName(t: GoFieldType): string {
  return t.k === 'scalar' ? t.kind : t.k;
}

/** strconv.Quote, for the field name in kube's "unable to find api field" message. */
function goQuote(s: string): string {
  const escapes: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v' };
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    if (escapes[ch] !== undefined) out += escapes[ch];
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

const noMeta: PatchMeta = { strategies: [], mergeKey: '' };

/** Patch metadata definitions with their field types parsed once, shared by every schema over them. */
class DefinitionIndex {
  private readonly parsed = new Map<string, { name: string; fields: Map<string, { type: GoFieldType; meta: PatchMeta }>; folded: Map<string, string> }>();

  constructor(private readonly definitions: Readonly<Record<string, PatchMetaDefinition>>) {}

  has(name: string): boolean {
    return Object.hasOwn(this.definitions, name);
  }

  /** The field of definition def with this JSON name: an exact match, else the first one equal ignoring case. */
  field(def: string, jsonName: string): { structName: string; field?: { type: GoFieldType; meta: PatchMeta } } {
    let entry = this.parsed.get(def);
    if (!entry) {
      const raw = this.definitions[def];
      if (raw === undefined) throw new Error(`patch metadata has no definition ${def}`);
      const fields = new Map<string, { type: GoFieldType; meta: PatchMeta }>();
      const folded = new Map<string, string>();
      for (const [name, f] of Object.entries(raw.f)) {
        const [expr, strategy, mergeKey] = typeof f === 'string' ? [f, '', ''] : [f[0], f[1], f[2] ?? ''];
        fields.set(name, { type: parseType(expr), meta: { strategies: strategy === '' ? [] : strategy.split(','), mergeKey } });
        const lower = name.toLowerCase();
        if (!folded.has(lower)) folded.set(lower, name);
      }
      entry = { name: raw.n, fields, folded };
      this.parsed.set(def, entry);
    }
    const exact = entry.fields.get(jsonName);
    if (exact) return { structName: entry.name, field: exact };
    const folded = entry.folded.get(jsonName.toLowerCase());
    return { structName: entry.name, ...(folded !== undefined ? { field: entry.fields.get(folded) } : {}) };
  }
}

/** The schema of one Go type: the root kind's struct, a field's type, or a list's element type. */
class StructSchema implements PatchSchema {
  constructor(
    private readonly index: DefinitionIndex,
    private readonly type: GoFieldType,
  ) {}

  get name(): string {
    return kindName(this.type);
  }

  lookupForStruct(key: string): PatchLookup {
    const t = this.type.k === 'ptr' ? this.type.elem : this.type;
    if (t.k === 'map') return { schema: new StructSchema(this.index, t.elem), meta: noMeta };
    if (t.k !== 'struct') throw errPatch(`merging an object in json but data type is not map or struct, instead is: ${kindName(t)}`);
    const { structName, field } = this.index.field(t.def, key);
    if (!field) throw errPatch(`unable to find api field in struct ${structName} for the json field ${goQuote(key)}`);
    return { schema: new StructSchema(this.index, field.type), meta: field.meta };
  }

  lookupForSlice(key: string): PatchLookup {
    const { schema, meta } = this.lookupForStruct(key);
    const t = (schema as StructSchema).type;
    if (t.k === 'slice') {
      if (t.elem.k === 'slice') throw errPatch('unexpected slice of slice');
      return { schema: new StructSchema(this.index, t.elem), meta };
    }
    if (t.k === 'ptr') {
      // A pointer field holding a list in the JSON: Go looks through the pointer (and a pointed-to slice).
      const elem = t.elem.k === 'slice' ? t.elem.elem : t.elem;
      return { schema: new StructSchema(this.index, elem), meta };
    }
    throw errPatch(`expected slice or array type, but got: ${kindName(this.type)}`);
  }
}

/**
 * A PatchSchema for the struct `root` of the given definitions. The definitions must be complete:
 * every `@name` they reference must be among them. Schemas are immutable and cheap to create.
 */
export function structPatchSchema(definitions: Readonly<Record<string, PatchMetaDefinition>>, root: string): PatchSchema {
  const index = new DefinitionIndex(definitions);
  if (!index.has(root)) throw new Error(`patch metadata has no definition ${root}`);
  return new StructSchema(index, { k: 'struct', def: root });
}

/** Like structPatchSchema, sharing one parsed index across many roots of the same definitions. */
export function structPatchSchemaFactory(definitions: Readonly<Record<string, PatchMetaDefinition>>): (root: string) => PatchSchema | undefined {
  const index = new DefinitionIndex(definitions);
  return (root) => (index.has(root) ? new StructSchema(index, { k: 'struct', def: root }) : undefined);
}
