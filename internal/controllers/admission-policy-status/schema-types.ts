/**
 * The checker's types of built-in kinds, from the generated OpenAPI definitions (api/gen/schemas.ts):
 * structs with their fields, lists, maps and scalars; custom JSON kinds (quantity, time,
 * intOrString, ...) stay unchecked.
 */
import { schemaDefinitions, schemaKinds, type GeneratedSchemaProperty } from '../../../api/gen/schemas.js';
import type { SchemaType } from '../../cel/schema-check.js';

const dyn: SchemaType = { kind: 'dyn' };
const cache = new Map<string, SchemaType>();

function fromExpr(t: string): SchemaType {
  if (t.startsWith('[]')) return { kind: 'list', element: fromExpr(t.slice(2)) };
  if (t.startsWith('{}')) return { kind: 'map', value: fromExpr(t.slice(2)) };
  if (t.startsWith('@')) return definition(t.slice(1));
  switch (t) {
    case 's':
      return { kind: 'scalar', name: 'string' };
    case 'b':
      return { kind: 'scalar', name: 'bool' };
    case 'i32':
    case 'i64':
      return { kind: 'scalar', name: 'int' };
    case 'f64':
      return { kind: 'scalar', name: 'double' };
    case 'byte':
      return { kind: 'scalar', name: 'string' };
    default:
      return dyn;
  }
}

function definition(name: string): SchemaType {
  const cached = cache.get(name);
  if (cached) return cached;
  const def = schemaDefinitions[name];
  if (!def || def.k || !def.p) {
    cache.set(name, dyn);
    return dyn;
  }
  const fields = new Map<string, SchemaType>();
  const type: SchemaType = { kind: 'object', fields, open: def.pu === 1 };
  cache.set(name, type);
  for (const [field, prop] of Object.entries(def.p)) {
    const p = typeof prop === 'string' ? { t: prop } : (prop as GeneratedSchemaProperty);
    fields.set(field, p.pu ? dyn : fromExpr(p.t));
  }
  return type;
}

/** The type of group/version/kind's objects; undefined for a kind without a schema (custom resources). */
export function kindType(group: string, version: string, kind: string): SchemaType | undefined {
  const def = schemaKinds[`${group ? `${group}/` : ''}${version}/${kind}`];
  return def ? definition(def) : undefined;
}
