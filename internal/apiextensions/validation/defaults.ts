/**
 * Defaults in a CRD schema (kube's structuraldefaulting.ValidateDefaults): each default must be
 * left unchanged by pruning ("must not have unknown fields") and must validate against the
 * schema of its node, CEL rules included. Both checks run through the schema helper's
 * compileVersionSchema, once per version: every defaulted node becomes one property of a wrapper
 * schema and every default one field of a wrapper object, so one compile and one pass cover all
 * defaults; the errors are mapped back to "<node>.default...". Defaults inside an embedded
 * resource's metadata, apiVersion or kind are left to that resource's validation (kube checks
 * them as a whole object; Capstan does not yet).
 */
import { childPath, invalid, keyPath, type FieldError } from '../../validation/field-error.js';
import type { KubeObject } from '../../../api/meta/types.js';
import type { JSONSchemaProps, VersionSchema } from '../interface.js';
import { compileVersionSchema } from '../schema/index.js';
import { isSet, itemsSchema, schemaEntries } from './schema-walk.js';

interface DefaultedNode {
  readonly path: string;
  readonly schema: JSONSchemaProps;
}

/** The nodes with a default, following items and properties (never additionalProperties) as kube does. */
function defaultedNodes(s: JSONSchemaProps, path: string, insideMeta: boolean, out: DefaultedNode[]): void {
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const meta = embedded ? false : insideMeta;
  if (isSet(s.default) && !meta) out.push({ path, schema: s });
  const items = itemsSchema(s);
  if (items) defaultedNodes(items, childPath(path, 'items'), meta, out);
  for (const [k, p] of schemaEntries(s.properties)) {
    const subMeta = meta || (embedded && (k === 'metadata' || k === 'apiVersion' || k === 'kind'));
    defaultedNodes(p, keyPath(childPath(path, 'properties'), k), subMeta, out);
  }
}

/** The detail of a default that pruning would change. */
export const unprunedDefault = 'must not have unknown fields';

function slot(i: number): string {
  return `d${i}`;
}

/** Rewrites a wrapper-relative error ("d3.foo") onto the default's own path. */
function remap(err: FieldError, nodes: readonly DefaultedNode[]): FieldError {
  const m = /^d(\d+)(.*)$/.exec(err.field);
  const node = m ? nodes[Number(m[1])] : undefined;
  if (!m || !node) return err;
  const field = `${node.path}.default${m[2]}`;
  return { ...err, field, detail: err.detail.split(err.field).join(field) };
}

/**
 * The default errors of the structural schema at path (requirePrunedDefaults: defaults must
 * survive pruning). compile: the schema helper's compiler (tests pass a fake). Never mutates schema.
 */
export function validateDefaults(
  schema: JSONSchemaProps,
  path: string,
  requirePrunedDefaults: boolean,
  compile: (s: JSONSchemaProps) => VersionSchema = compileVersionSchema,
): FieldError[] {
  const nodes: DefaultedNode[] = [];
  // The root is a resource root: kube treats it as an embedded resource.
  defaultedNodes({ ...schema, 'x-kubernetes-embedded-resource': true }, path, false, nodes);
  if (nodes.length === 0) return [];
  const properties: Record<string, JSONSchemaProps> = {};
  const wrapper: KubeObject = { apiVersion: 'validation/v1', kind: 'Validation', metadata: {} };
  nodes.forEach((n, i) => {
    properties[slot(i)] = n.schema;
    wrapper[slot(i)] = structuredClone(n.schema.default);
  });
  let compiled;
  try {
    compiled = compile({ type: 'object', properties });
  } catch (e) {
    return [invalid(path, '', `error building validator: ${(e as Error).message}`)];
  }
  const errs: FieldError[] = [];
  if (requirePrunedDefaults) {
    const pruned = structuredClone(wrapper);
    const removed = compiled.prune(pruned);
    const unpruned = new Set<number>();
    for (const r of removed) {
      const m = /^d(\d+)/.exec(r);
      if (m) unpruned.add(Number(m[1]));
    }
    for (const i of [...unpruned].sort((a, b) => a - b)) {
      const n = nodes[i] as DefaultedNode;
      errs.push(invalid(childPath(n.path, 'default'), n.schema.default, unprunedDefault));
    }
  }
  errs.push(...compiled.validate(wrapper, undefined, { ratcheting: false }).map((e) => remap(e, nodes)));
  return errs;
}
