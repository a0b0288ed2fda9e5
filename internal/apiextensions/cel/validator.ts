/**
 * The run-time validator of a schema's x-kubernetes-validations (kube's cel.Validator): a tree
 * that mirrors the schema but holds only the nodes whose subtree has rules, each node with its
 * rules compiled once. validate() walks the object along that tree, binds `self` (and `oldSelf`
 * where the old value correlates) and evaluates every rule under the per-call cost limit and the
 * whole validation's budget, with kube's error texts.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { perCallLimit, runtimeCelCostBudget } from '../../cel/expression.js';
import { childPath, indexPath, keyPath, type FieldError, type FieldPath } from '../../validation/field-error.js';
import type { CelValidator, JSONSchemaProps, SchemaValidationOptions } from '../interface.js';
import { compileRules } from './compile.js';
import { Correlation, mapListLookup, ratchetIndex, ratchetKey } from './correlation.js';
import { escapeFieldName, schemaDeclType } from './decl-type.js';
import { evaluateRules } from './evaluate.js';
import type { CompiledRule, CostLimits, DeclType, Ratcheting, ValidatorNode, WalkState } from './interface.js';

function objectSchema(s: JSONSchemaProps | boolean | undefined): JSONSchemaProps | undefined {
  return s && typeof s === 'object' ? s : undefined;
}

function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return s.items && !Array.isArray(s.items) ? (s.items as JSONSchemaProps) : undefined;
}

/**
 * The validator node of validation (the rules) over node (the schema the value follows; the same
 * except inside allOf); undefined when neither holds a rule below.
 */
export function buildNode(validation: JSONSchemaProps, node: JSONSchemaProps, decl: DeclType | undefined): ValidatorNode | undefined {
  const xv = validation['x-kubernetes-validations'] ?? [];
  let rules: CompiledRule[] = [];
  let compileError: string | undefined;
  if (xv.length > 0) {
    if (decl) rules = compileRules(xv, node, decl);
    else compileError = `rule declared on schema that does not support validation rules type: '${node.type ?? ''}' x-kubernetes-preserve-unknown-fields: '${node['x-kubernetes-preserve-unknown-fields'] === true}'`;
  }
  const vItems = itemsSchema(validation);
  const nItems = itemsSchema(node);
  const items = vItems && nItems ? buildNode(vItems, nItems, decl?.kind === 'list' ? decl.elem : undefined) : undefined;
  let properties: Map<string, ValidatorNode> | undefined;
  for (const [k, vProp] of Object.entries(validation.properties ?? {})) {
    const nProp = node.properties?.[k];
    if (!nProp) continue;
    const embedded = nProp['x-kubernetes-embedded-resource'] === true;
    const fieldDecl = escapeFieldName(k) !== undefined ? decl?.props?.get(k) : schemaDeclType(nProp, embedded);
    if (!fieldDecl) continue;
    const child = buildNode(vProp, nProp, fieldDecl);
    if (child) (properties ??= new Map()).set(k, child);
  }
  const vAp = objectSchema(validation.additionalProperties);
  const nAp = objectSchema(node.additionalProperties);
  const additionalProperties = vAp && nAp ? buildNode(vAp, nAp, decl?.kind === 'map' ? decl.elem : undefined) : undefined;
  const allOf = (validation.allOf ?? []).map((a) => buildNode(a, node, decl)).filter((n): n is ValidatorNode => n !== undefined);
  if (rules.length === 0 && !compileError && !items && !additionalProperties && !properties && allOf.length === 0) return undefined;
  return {
    schema: node,
    decl,
    rules,
    compileError,
    usesOldSelf: rules.some((r) => r.usesOldSelf),
    items,
    additionalProperties,
    properties,
    allOf: allOf.length > 0 ? allOf : undefined,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Walks value (old: its correlated old value) under n; returns false when the budget ran out. */
export function walk(n: ValidatorNode, path: FieldPath, value: unknown, old: unknown, ratchet: Ratcheting, state: WalkState): boolean {
  if (value === null || value === undefined) return true;
  if (!evaluateRules(n, path, value, old ?? undefined, ratchet, state)) return false;
  for (const a of n.allOf ?? []) {
    if (!walk(a, path, value, old, { nearestParent: ratchet.nearestParent }, state)) return false;
  }
  if (Array.isArray(value)) {
    if (!n.items) return true;
    const lookup = mapListLookup(n.schema, old);
    for (let i = 0; i < value.length; i++) {
      if (!walk(n.items, indexPath(path, i), value[i], lookup?.(value[i]), ratchetIndex(ratchet, i), state)) return false;
    }
    return true;
  }
  if (!isObject(value)) return true;
  const oldMap = isObject(old) && n.schema['x-kubernetes-map-type'] !== 'atomic' ? old : undefined;
  if (n.additionalProperties) {
    for (const [k, v] of Object.entries(value)) {
      if (!walk(n.additionalProperties, keyPath(path, k), v, oldMap?.[k], ratchetKey(ratchet, k), state)) return false;
    }
  }
  if (n.properties) {
    // Only the properties that lead to rules: an object's other fields are never visited.
    for (const [k, sub] of n.properties) {
      if (!Object.prototype.hasOwnProperty.call(value, k)) continue;
      if (!walk(sub, childPath(path, k), value[k], oldMap?.[k], ratchetKey(ratchet, k), state)) return false;
    }
  }
  return true;
}

/** The CelValidator of a CRD version's schema; undefined when it has no rules. */
export function newCelValidator(schema: JSONSchemaProps, limits: CostLimits = { budget: runtimeCelCostBudget, perCallLimit }): CelValidator | undefined {
  const root = buildNode(schema, schema, schemaDeclType(schema, true));
  if (!root) return undefined;
  return {
    validate(obj: KubeObject, old: KubeObject | undefined, opts: SchemaValidationOptions): FieldError[] {
      const state: WalkState = { budget: limits.budget, perCallLimit: limits.perCallLimit, errors: [] };
      const ratchet: Ratcheting = opts.ratcheting && old ? { current: new Correlation(obj, old, schema) } : {};
      walk(root, undefined, obj, old, ratchet, state);
      return state.errors;
    },
  };
}

/**
 * The rules of schema (and below) evaluated against value, reported under fieldPath; old is the
 * value itself, so transition rules run with oldSelf == self (kube's validation of defaults and
 * other values written in a CRD). Compiles per call: for CRD writes, not for serving.
 */
export function validateValue(schema: JSONSchemaProps, value: unknown, fieldPath: string, isResourceRoot: boolean): FieldError[] {
  const root = buildNode(schema, schema, schemaDeclType(schema, isResourceRoot));
  if (!root) return [];
  const state: WalkState = { budget: runtimeCelCostBudget, perCallLimit, errors: [] };
  walk(root, fieldPath, value, value, {}, state);
  return state.errors;
}
