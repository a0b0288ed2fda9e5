/**
 * Compiling a CRD version's openAPIV3Schema to an ajv validator, once per version: the schema is
 * rewritten to the JSON Schema ajv speaks (nullable and int-or-string as type lists, OpenAPI's
 * boolean exclusiveMinimum/Maximum as numbers, unsupported formats dropped as kube drops them,
 * x-kubernetes-* left out) and each rewritten node remembers its source for kube's messages.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { JSONSchemaProps } from '../interface.js';
import { formatCheckers } from './formats.js';
import { compileRe2 } from './pattern.js';
import { setOwnKey } from '../../collections/own-key.js';

const neverFails = { test: () => true };

/** RE2 patterns through the translation; a pattern JavaScript cannot express checks nothing. */
const re2Engine = Object.assign((pattern: string) => compileRe2(pattern) ?? neverFails, { code: 'compileRe2' });

let shared: Ajv | undefined;

function ajv(): Ajv {
  if (shared) return shared;
  const a = new Ajv({
    allErrors: true,
    verbose: true,
    strict: false,
    messages: false,
    validateFormats: true,
    addUsedSchema: false,
    // CRD validation already refused malformed schemas; ajv's meta-schema would only add its own wording.
    validateSchema: false,
    multipleOfPrecision: 9,
    // Only own keys count: without it `required: [__proto__]` (or `constructor`) finds the
    // prototype's and passes for an object that lacks the key.
    ownProperties: true,
    // ajv's code optimisation passes cost more compile time than they save per validation here.
    code: { regExp: re2Engine, optimize: false },
  });
  for (const [name, check] of formatCheckers) a.addFormat(name, { type: 'string', validate: check });
  shared = a;
  return a;
}

/** The source node of a rewritten schema node (what errors.ts words messages from). */
export const sourceOf = new WeakMap<object, JSONSchemaProps>();

/** A compiled validator: true when valid, else the errors ajv found. */
export type CompiledValidator = (data: unknown) => ErrorObject[] | undefined;

/** Rewrites one JSONSchemaProps node (and its children) for ajv. */
export function toAjvSchema(p: JSONSchemaProps): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (p['x-kubernetes-int-or-string']) out['type'] = p.nullable ? ['integer', 'string', 'null'] : ['integer', 'string'];
  else if (p.type) out['type'] = p.nullable ? [p.type, 'null'] : p.type;
  if (p.format !== undefined && formatCheckers.has(p.format) && (p.type === 'string' || p.type === undefined)) out['format'] = p.format;
  if (p.enum !== undefined && p.enum.length > 0) out['enum'] = p.enum;
  if (p.pattern !== undefined) out['pattern'] = p.pattern;
  if (p.maxLength !== undefined) out['maxLength'] = p.maxLength;
  if (p.minLength !== undefined) out['minLength'] = p.minLength;
  if (p.maximum !== undefined) out[p.exclusiveMaximum ? 'exclusiveMaximum' : 'maximum'] = p.maximum;
  if (p.minimum !== undefined) out[p.exclusiveMinimum ? 'exclusiveMinimum' : 'minimum'] = p.minimum;
  if (p.multipleOf !== undefined) out['multipleOf'] = p.multipleOf;
  if (p.maxItems !== undefined) out['maxItems'] = p.maxItems;
  if (p.minItems !== undefined) out['minItems'] = p.minItems;
  if (p.uniqueItems) out['uniqueItems'] = true;
  if (p.maxProperties !== undefined) out['maxProperties'] = p.maxProperties;
  if (p.minProperties !== undefined) out['minProperties'] = p.minProperties;
  if (p.required !== undefined && p.required.length > 0) out['required'] = p.required;
  if (p.items !== undefined) {
    out['items'] = Array.isArray(p.items) ? (p.items as readonly JSONSchemaProps[]).map(toAjvSchema) : toAjvSchema(p.items as JSONSchemaProps);
  }
  const patterns: Record<string, unknown> = {};
  if (p.properties !== undefined) {
    const props: Record<string, unknown> = {};
    // ajv skips a property named __proto__ (its allSchemaProperties leaves it out); an anchored
    // pattern checks that key all the same (CRD schemas may not use patternProperties themselves).
    for (const [k, v] of Object.entries(p.properties)) setOwnKey(k === '__proto__' ? patterns : props, k === '__proto__' ? '^__proto__$' : k, toAjvSchema(v));
    out['properties'] = props;
  }
  if (p.patternProperties !== undefined) for (const [k, v] of Object.entries(p.patternProperties)) setOwnKey(patterns, k, toAjvSchema(v));
  if (Object.keys(patterns).length > 0) out['patternProperties'] = patterns;
  if (p.additionalProperties === false) out['additionalProperties'] = false;
  else if (typeof p.additionalProperties === 'object') out['additionalProperties'] = toAjvSchema(p.additionalProperties);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = p[key];
    if (list !== undefined && list.length > 0) out[key] = list.map(toAjvSchema);
  }
  if (p.not !== undefined) out['not'] = toAjvSchema(p.not);
  sourceOf.set(out, p);
  return out;
}

/** Compiles schema once; the returned function is safe to call concurrently and never mutates data. */
export function compileAjv(schema: JSONSchemaProps): CompiledValidator {
  const rewritten = toAjvSchema(schema);
  const a = ajv();
  const fn: ValidateFunction = a.compile(rewritten);
  // The compiled function keeps what it needs; leaving the schema cached would grow with every CRD generation.
  a.removeSchema(rewritten);
  return (data) => (fn(data) ? undefined : (fn.errors ?? []));
}
