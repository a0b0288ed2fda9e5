/**
 * Resolves the generated schema table (api/gen/schemas.ts) into a graph of SchemaNodes, lazily and
 * once per definition: the first write of a kind pays for building its types, later writes reuse
 * them. Nothing here is compiled per call.
 */
import { schemaDefinitions, schemaKinds, type GeneratedSchemaProperty } from '../../../api/gen/schemas.js';
import type { CustomKind, FieldNode, GVK, SchemaNode, StructNode } from './types.js';

const scalarTypes: Readonly<Record<string, SchemaNode>> = {
  s: { kind: 'string', goType: 'string' },
  b: { kind: 'bool', goType: 'bool' },
  i32: { kind: 'int32', goType: 'int32' },
  i64: { kind: 'int64', goType: 'int64' },
  f64: { kind: 'float64', goType: 'float64' },
  byte: { kind: 'bytes', goType: '[]uint8' },
  any: { kind: 'any', goType: 'interface {}' },
};

const customKinds = new Set<string>(['quantity', 'time', 'microtime', 'intOrString', 'schemaOrBool', 'schemaOrArray', 'schemaOrStringArray']);

const definitionNodes = new Map<string, SchemaNode>();

/** The `<apiVersion>/<kind>` key of the generated kind table. */
function kindKey(gvk: GVK): string {
  return `${gvk.group === '' ? '' : `${gvk.group}/`}${gvk.version}/${gvk.kind}`;
}

/** The node of one definition, built on first use; unknown names throw (the generator guarantees them). */
export function definitionNode(name: string): SchemaNode {
  const cached = definitionNodes.get(name);
  if (cached !== undefined) return cached;
  const def = schemaDefinitions[name];
  if (def === undefined) throw new Error(`schema: no definition ${name}`);
  let node: SchemaNode;
  if (def.pu === 1 || def.k === 'any') {
    node = { kind: 'any', goType: def.g };
  } else if (def.k !== undefined) {
    if (!customKinds.has(def.k)) throw new Error(`schema: unknown custom kind ${def.k} of ${name}`);
    node = { kind: def.k as CustomKind, goType: def.g };
  } else {
    const fields = new Map<string, FieldNode>();
    const structNode: StructNode = {
      kind: 'struct',
      goType: def.g,
      structName: def.g.slice(def.g.lastIndexOf('.') + 1),
      definition: name,
      fields,
      required: def.r ?? [],
    };
    // Registered before its fields resolve, so recursive types (JSONSchemaProps) find themselves.
    definitionNodes.set(name, structNode);
    for (const [fieldName, spec] of Object.entries(def.p ?? {})) {
      fields.set(fieldName, { name: fieldName, node: propertyNode(spec) });
    }
    return structNode;
  }
  definitionNodes.set(name, node);
  return node;
}

function propertyNode(spec: string | GeneratedSchemaProperty): SchemaNode {
  if (typeof spec === 'string') return expressionNode(spec, undefined);
  if (spec.pu === 1) return { kind: 'any', goType: spec.g ?? 'interface {}' };
  return expressionNode(spec.t, spec);
}

function expressionNode(expr: string, extras: GeneratedSchemaProperty | undefined): SchemaNode {
  if (expr.startsWith('[]')) {
    const items = expressionNode(expr.slice(2), undefined);
    return {
      kind: 'array',
      goType: extras?.g ?? `[]${items.goType}`,
      items,
      ...(extras?.lt !== undefined ? { listType: extras.lt } : {}),
      ...(extras?.lk !== undefined ? { listMapKeys: extras.lk } : {}),
    };
  }
  if (expr.startsWith('{}')) {
    const values = expressionNode(expr.slice(2), undefined);
    return {
      kind: 'map',
      goType: extras?.g ?? `map[string]${values.goType}`,
      values,
      ...(extras?.mt !== undefined ? { mapType: extras.mt } : {}),
    };
  }
  if (expr.startsWith('@')) {
    const node = definitionNode(expr.slice(1));
    // A named Go type on a reference (none today) would need its own node; the referenced one is shared.
    return node;
  }
  const scalar = scalarTypes[expr];
  if (scalar === undefined) throw new Error(`schema: unknown type expression ${expr}`);
  if (extras?.g !== undefined) return { kind: scalar.kind, goType: extras.g } as SchemaNode;
  return scalar;
}

/** True when the generated table has a schema for this group/version/kind. */
export function hasSchema(gvk: GVK): boolean {
  return Object.prototype.hasOwnProperty.call(schemaKinds, kindKey(gvk));
}

/** The root struct of a kind, or undefined when the kind has no schema (callers then skip the checks). */
export function kindNode(gvk: GVK): StructNode | undefined {
  const key = kindKey(gvk);
  if (!Object.prototype.hasOwnProperty.call(schemaKinds, key)) return undefined;
  const node = definitionNode(schemaKinds[key] as string);
  return node.kind === 'struct' ? node : undefined;
}

/** Every `<apiVersion>/<kind>` key of the generated kind table (for tests and tooling). */
export function schemaKindKeys(): string[] {
  return Object.keys(schemaKinds);
}
