/**
 * kube's ValidateCustomResourceDefinitionOpenAPISchema: the keywords a CRD schema may use
 * (OpenAPI v3 minus id, $ref, definitions, dependencies, patternProperties, additionalItems,
 * items arrays and type null), uniqueItems, properties versus additionalProperties, defaults
 * where they are forbidden (inside top-level metadata), and the x-kubernetes-* extensions:
 * preserve-unknown-fields, map-type, list-type with list-map-keys, embedded resources, and the
 * static parts of x-kubernetes-validations. Walks every sub-schema; never mutates.
 */
import { childPath, forbidden, indexPath, invalid, keyPath, notSupported, required, type FieldError } from '../../validation/field-error.js';
import type { JSONSchemaProps } from '../interface.js';
import { validateMapListKeysMapSet, validateListType } from './list-types.js';
import type { ValidationOptions } from './options.js';
import { additionalPropertiesSchema, asSchema, hasEntries, isSet, schemaEntries, schemaList, str } from './schema-walk.js';

const openapiV3Types = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const metaFields = new Set(['metadata', 'kind', 'apiVersion']);

/** Where in a schema the walk is (kube's specStandardValidatorV3). */
interface WalkState {
  readonly allowDefaults: boolean;
  readonly disallowDefaultsReason: string;
  readonly insideResourceMeta: boolean;
}

/** The keyword rules of one schema node (specStandardValidatorV3.validate). */
function validateKeywords(s: JSONSchemaProps, path: string, state: WalkState, opts: ValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(s.type);
  if (opts.requireValidPropertyType && type && !openapiV3Types.includes(type)) errs.push(notSupported(childPath(path, 'type'), type, openapiV3Types));
  if (isSet(s.default) && !state.allowDefaults) {
    const reason = state.disallowDefaultsReason;
    errs.push(forbidden(childPath(path, 'default'), reason ? `must not be set ${reason}` : 'must not be set'));
  }
  if (str(s.id)) errs.push(forbidden(childPath(path, 'id'), 'id is not supported'));
  if (isSet(s.additionalItems)) errs.push(forbidden(childPath(path, 'additionalItems'), 'additionalItems is not supported'));
  if (hasEntries(s.patternProperties)) errs.push(forbidden(childPath(path, 'patternProperties'), 'patternProperties is not supported'));
  if (hasEntries(s.definitions)) errs.push(forbidden(childPath(path, 'definitions'), 'definitions is not supported'));
  if (isSet(s.dependencies)) errs.push(forbidden(childPath(path, 'dependencies'), 'dependencies is not supported'));
  if (isSet(s.$ref)) errs.push(forbidden(childPath(path, '$ref'), '$ref is not supported'));
  if (type === 'null') errs.push(forbidden(childPath(path, 'type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length > 0) errs.push(forbidden(childPath(path, 'items'), 'items must be a schema object and not an array'));
  if (state.insideResourceMeta && s['x-kubernetes-embedded-resource'] === true) {
    errs.push(forbidden(childPath(path, 'x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'));
  }
  return errs;
}

const newline = /[\n\r]+/;

/** The rule, message and messageExpression checks of x-kubernetes-validations that need no CEL. */
function validateRuleTexts(s: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const rules = Array.isArray(s['x-kubernetes-validations']) ? s['x-kubernetes-validations'] : [];
  rules.forEach((raw, i) => {
    const r = (asSchema(raw) ?? {}) as Record<string, unknown>;
    const p = indexPath(childPath(path, 'x-kubernetes-validations'), i);
    const rule = str(r.rule).trim();
    const message = str(r.message);
    const msg = message.trim();
    if (!rule) errs.push(required(childPath(p, 'rule'), 'rule is not specified'));
    else if (message.length > 0 && !msg) errs.push(invalid(childPath(p, 'message'), message, 'message must be non-empty if specified'));
    else if (newline.test(msg)) errs.push(invalid(childPath(p, 'message'), message, 'message must not contain line breaks'));
    else if (newline.test(rule) && !msg) errs.push(required(childPath(p, 'message'), 'message must be specified if rule contains line breaks'));
    const expr = str(r.messageExpression);
    if (expr.length > 0 && !expr.trim()) errs.push(required(childPath(p, 'messageExpression'), 'messageExpression must be non-empty if specified'));
  });
  return errs;
}

/**
 * Validates the schema s at path (isRoot: the openAPIV3Schema itself) and every schema below it,
 * returning kube's schema errors in kube's order. Never mutates.
 */
export function validateOpenAPISchema(s: JSONSchemaProps | undefined, path: string, isRoot: boolean, opts: ValidationOptions): FieldError[] {
  return walk(s, path, { allowDefaults: opts.allowDefaults, disallowDefaultsReason: '', insideResourceMeta: false }, isRoot, opts);
}

function walk(s: JSONSchemaProps | undefined, path: string, state: WalkState, isRoot: boolean, opts: ValidationOptions): FieldError[] {
  if (!s) return [];
  const errs = validateKeywords(s, path, state, opts);
  if (s.uniqueItems === true) errs.push(forbidden(childPath(path, 'uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const hasProperties = hasEntries(s.properties);
  if (isSet(s.additionalProperties)) {
    const ap = additionalPropertiesSchema(s);
    if (hasProperties && (s.additionalProperties === false || ap)) {
      errs.push(forbidden(childPath(path, 'additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    }
    // Pruning a default inside a metadata map has no value to go by, so such defaults are refused.
    const sub = state.insideResourceMeta ? { ...state, allowDefaults: false, disallowDefaultsReason: 'inside additionalProperties applying to object metadata' } : state;
    errs.push(...walk(ap, childPath(path, 'additionalProperties'), sub, false, opts));
  }
  for (const [name, prop] of schemaEntries(s.properties)) {
    let sub = state;
    if ((isRoot || s['x-kubernetes-embedded-resource'] === true) && metaFields.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = { ...sub, allowDefaults: false, disallowDefaultsReason: `in top-level ${name}` };
    }
    errs.push(...walk(prop, keyPath(childPath(path, 'properties'), name), sub, false, opts));
  }
  errs.push(...walk(asSchema(s.not), childPath(path, 'not'), state, false, opts));
  for (const kw of ['allOf', 'oneOf', 'anyOf'] as const) {
    schemaList(s[kw]).forEach((x, i) => errs.push(...walk(x, indexPath(childPath(path, kw), i), state, false, opts)));
  }
  for (const [name, def] of schemaEntries(s.definitions)) errs.push(...walk(def, keyPath(childPath(path, 'definitions'), name), state, false, opts));
  if (Array.isArray(s.items)) {
    s.items.forEach((x, i) => errs.push(...walk(asSchema(x) ?? {}, indexPath(childPath(path, 'items'), i), state, false, opts)));
  } else {
    errs.push(...walk(asSchema(s.items), childPath(path, 'items'), state, false, opts));
  }
  for (const [name, dep] of Object.entries((asSchema(s.dependencies) ?? {}) as Record<string, unknown>)) {
    if (!Array.isArray(dep)) errs.push(...walk(asSchema(dep), keyPath(childPath(path, 'dependencies'), name), state, false, opts));
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(invalid(childPath(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'));
  }
  errs.push(...validateListType(s, path, opts));
  if (opts.requireMapListKeysMapSetValidation) errs.push(...validateMapListKeysMapSet(s, path));
  errs.push(...validateRuleTexts(s, path));
  return errs;
}
