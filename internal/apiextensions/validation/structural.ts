/**
 * kube's structural schema rules (apiextensions-apiserver pkg/apiserver/schema: NewStructural's
 * unsupported keywords and ValidateStructural): every specified node has a type (except under
 * x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields), allOf/anyOf/oneOf/not hold
 * value validations only, what they name is also specified outside them, embedded resources are
 * objects with properties or preserved fields, and metadata at the root restricts only name and
 * generateName. Never mutates.
 */
import { childPath, fieldErrorMessage, forbidden, indexPath, invalid, keyPath, required, type FieldError } from '../../validation/field-error.js';
import type { JSONSchemaProps } from '../interface.js';
import { additionalPropertiesSchema, asSchema, hasEntries, isSet, itemsSchema, schemaEntries, schemaHas, schemaList, str } from './schema-walk.js';

type Level = 'root' | 'item' | 'field';

const unsupported: ReadonlyArray<readonly [keyof JSONSchemaProps, string, (v: unknown) => boolean]> = [
  ['id', 'id', (v) => str(v).length > 0],
  ['$schema', 'schema', (v) => str(v).length > 0],
  ['$ref', '$ref', (v) => str(v).length > 0],
  ['patternProperties', 'patternProperties', hasEntries],
  ['dependencies', 'dependencies', hasEntries],
  ['additionalItems', 'additionalItems', isSet],
  ['definitions', 'definitions', hasEntries],
];

/** NewStructural's refusal of a schema, as its error text, or undefined when it converts. */
export function structuralConversionError(schema: JSONSchemaProps): string | undefined {
  let found: string | undefined;
  schemaHas(schema, (s) => {
    for (const [key, name, present] of unsupported) {
      if (present(s[key])) {
        found = `OpenAPIV3Schema '${name}' is not supported`;
        return true;
      }
    }
    if (s['x-kubernetes-preserve-unknown-fields'] === false) {
      found = "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
      return true;
    }
    return false;
  });
  return found;
}

function isBareType(s: JSONSchemaProps, type: string): boolean {
  const keys = Object.keys(s).filter((k) => (s as Record<string, unknown>)[k] !== undefined);
  return keys.length === 1 && s.type === type;
}

/** anyOf: [{type: integer}, {type: string}] exactly, kube's int-or-string exception. */
function isIntOrStringAnyOf(anyOf: unknown): boolean {
  const list = schemaList(anyOf);
  return list.length === 2 && isBareType(list[0] as JSONSchemaProps, 'integer') && isBareType(list[1] as JSONSchemaProps, 'string');
}

/** Go's regexp (RE2) compile error for pattern, in Go's words where they can be told apart, or undefined. */
export function goRegexpError(pattern: string): string | undefined {
  const perl = /\(\?(?:<[=!]|[=!])/.exec(pattern);
  if (perl) return `invalid or unsupported Perl syntax: \`${perl[0]}\``;
  const backref = /\\[1-9]/.exec(pattern);
  if (backref) return `invalid escape sequence: \`${backref[0]}\``;
  try {
    new RegExp(pattern);
    return undefined;
  } catch (e) {
    const why = (e as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    if (why === 'Unterminated group') return `missing closing ): \`${pattern}\``;
    if (why === "Unmatched ')'") return `unexpected ): \`${pattern}\``;
    if (why === 'Unterminated character class') return `missing closing ]: \`${pattern.slice(pattern.lastIndexOf('['))}\``;
    if (why === 'Nothing to repeat') return `missing argument to repetition operator: \`${/[*+?{]/.exec(pattern)?.[0] ?? '*'}\``;
    return why;
  }
}

function patternErrors(s: JSONSchemaProps, path: string): FieldError[] {
  const pattern = str(s.pattern);
  const err = pattern ? goRegexpError(pattern) : undefined;
  return err ? [invalid(childPath(path, 'pattern'), pattern, `must be a valid regular expression, but isn't: error parsing regexp: ${err}`)] : [];
}

/** validateValueValidation: the junctors of a node and its pattern. */
function valueValidation(s: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) schemaList(s.anyOf).forEach((x, i) => errs.push(...nested(x, false, lvl, indexPath(childPath(path, 'anyOf'), i))));
  schemaList(s.allOf).forEach((x, i) => errs.push(...nested(x, skipFirstAllOfAnyOf && i === 0, lvl, indexPath(childPath(path, 'allOf'), i))));
  schemaList(s.oneOf).forEach((x, i) => errs.push(...nested(x, false, lvl, indexPath(childPath(path, 'oneOf'), i))));
  const not = asSchema(s.not);
  if (not) errs.push(...nested(not, false, lvl, childPath(path, 'not')));
  errs.push(...patternErrors(s, path));
  return errs;
}

/** validateNestedValueValidation: inside a junctor only value validations may appear. */
function nested(v: JSONSchemaProps, skipAnyOf: boolean, lvl: Level, path: string): FieldError[] {
  const errs = valueValidation(v, skipAnyOf, false, lvl, path);
  const items = itemsSchema(v);
  if (items) errs.push(...nested(items, false, lvl, childPath(path, 'items')));
  for (const [k, p] of schemaEntries(v.properties)) errs.push(...nested(p, false, 'field', keyPath(childPath(path, 'properties'), k)));
  const mustBe = (key: string, what: string) => errs.push(forbidden(childPath(path, key), `must be ${what} to be structural`));
  if (str(v.type)) mustBe('type', 'empty');
  if (isSet(v.additionalProperties)) mustBe('additionalProperties', 'undefined');
  if (isSet(v.default)) mustBe('default', 'undefined');
  if (str(v.title)) mustBe('title', 'empty');
  if (str(v.description)) mustBe('description', 'empty');
  if (v.nullable === true) mustBe('nullable', 'false');
  if (v['x-kubernetes-preserve-unknown-fields'] === true) mustBe('x-kubernetes-preserve-unknown-fields', 'false');
  if (v['x-kubernetes-embedded-resource'] === true) mustBe('x-kubernetes-embedded-resource', 'false');
  if (v['x-kubernetes-int-or-string'] === true) mustBe('x-kubernetes-int-or-string', 'false');
  if (Array.isArray(v['x-kubernetes-list-map-keys']) && v['x-kubernetes-list-map-keys'].length > 0) mustBe('x-kubernetes-list-map-keys', 'empty');
  if (isSet(v['x-kubernetes-list-type'])) mustBe('x-kubernetes-list-type', 'undefined');
  if (isSet(v['x-kubernetes-map-type'])) mustBe('x-kubernetes-map-type', 'undefined');
  if (Array.isArray(v['x-kubernetes-validations']) && v['x-kubernetes-validations'].length > 0) mustBe('x-kubernetes-validations', 'empty');
  if (hasOwnProperty(v.properties, 'metadata')) {
    errs.push(forbidden(keyPath(childPath(path, 'properties'), 'metadata'), 'must not be specified in a nested context'));
  }
  return errs;
}

function hasOwnProperty(map: unknown, key: string): boolean {
  const o = asSchema(map);
  return !!o && Object.hasOwn(o, key);
}

/** The root metadata schema may only restrict name and generateName. */
function metadataInvariants(m: JSONSchemaProps, checkMetadata: boolean, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && m.type !== 'object') errs.push(invalid(childPath(path, 'type'), str(m.type), 'must be object'));
  if (lvl === 'root') {
    const rest = { ...(m as Record<string, unknown>) };
    const props = Object.keys(asSchema(m.properties) ?? {});
    const onlyNames = props.length > 0 && props.every((p) => p === 'name' || p === 'generateName');
    if (onlyNames) delete rest.properties;
    delete rest.type;
    delete rest.default;
    // A structural schema keeps neither documentation examples nor external docs.
    delete rest.example;
    delete rest.externalDocs;
    // Go's zero values do not count as specified.
    for (const [k, v] of Object.entries(rest)) {
      if (v === undefined || v === null || v === false || v === '') delete rest[k];
    }
    if (Object.keys(rest).length > 0) {
      errs.push(forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    }
  }
  return errs;
}

/** validateStructuralInvariants at one structural node. */
function invariants(s: JSONSchemaProps, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(s.type);
  const items = itemsSchema(s);
  if (type === 'array' && !items) errs.push(required(childPath(path, 'items'), 'must be specified'));
  if (items) errs.push(...invariants(items, 'item', childPath(path, 'items')));
  for (const [k, p] of schemaEntries(s.properties)) errs.push(...invariants(p, 'field', keyPath(childPath(path, 'properties'), k)));
  if (isSet(s.additionalProperties)) {
    if (lvl === 'root') errs.push(forbidden(childPath(path, 'additionalProperties'), 'must not be used at the root'));
    const ap = additionalPropertiesSchema(s);
    if (ap) errs.push(...invariants(ap, 'field', childPath(path, 'additionalProperties')));
  }
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve) errs.push(invalid(childPath(path, 'x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) errs.push(invalid(childPath(path, 'x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));
  const allOf = schemaList(s.allOf);
  errs.push(...valueValidation(s, isIntOrStringAnyOf(s.anyOf), allOf.length >= 1 && isIntOrStringAnyOf(allOf[0]?.anyOf), lvl, path));
  if (embedded && type !== 'object') {
    if (!type) errs.push(required(childPath(path, 'type'), 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(invalid(childPath(path, 'type'), type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (!type && !intOrString && !preserve) {
    const detail = { root: 'must not be empty at the root', item: 'must not be empty for specified array items', field: 'must not be empty for specified object fields' }[lvl];
    errs.push(required(childPath(path, 'type'), detail));
  }
  if (embedded && isSet(s.additionalProperties)) errs.push(forbidden(childPath(path, 'additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  if (lvl === 'root' && type && type !== 'object') errs.push(invalid(childPath(path, 'type'), type, 'must be object at the root'));
  const checkMetadata = lvl === 'root' || embedded;
  const props = (asSchema(s.properties) ?? {}) as Record<string, unknown>;
  const propsPath = childPath(path, 'properties');
  for (const meta of ['kind', 'apiVersion']) {
    if (checkMetadata && Object.hasOwn(props, meta)) {
      const t = str(asSchema(props[meta])?.type);
      if (t !== 'string') errs.push(invalid(childPath(keyPath(propsPath, meta), 'type'), t, 'must be string'));
    }
  }
  if (Object.hasOwn(props, 'metadata')) errs.push(...metadataInvariants(asSchema(props.metadata) ?? {}, checkMetadata, lvl, keyPath(propsPath, 'metadata')));
  if (embedded && !preserve && !hasEntries(s.properties)) {
    errs.push(required(childPath(path, 'properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

function completenessOfJunctors(v: JSONSchemaProps, s: JSONSchemaProps, sPath: string, vPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const not = asSchema(v.not);
  if (not) errs.push(...completeness(not, s, sPath, childPath(vPath, 'not')));
  for (const kw of ['allOf', 'anyOf', 'oneOf'] as const) {
    schemaList(v[kw]).forEach((x, i) => errs.push(...completeness(x, s, sPath, indexPath(childPath(vPath, kw), i))));
  }
  return errs;
}

/** validateNestedValueValidationCompleteness: what a junctor names must exist structurally. */
function completeness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: string, vPath: string): FieldError[] {
  if (!s) return [required(sPath, `because it is defined in ${vPath}`)];
  const errs = completenessOfJunctors(v, s, sPath, vPath);
  const vItems = itemsSchema(v);
  if (vItems) errs.push(...completeness(vItems, itemsSchema(s), childPath(sPath, 'items'), childPath(vPath, 'items')));
  const sProps = (asSchema(s.properties) ?? {}) as Record<string, unknown>;
  for (const [k, p] of schemaEntries(v.properties)) {
    const sKey = keyPath(childPath(sPath, 'properties'), k);
    const vKey = keyPath(childPath(vPath, 'properties'), k);
    if (!Object.hasOwn(sProps, k)) errs.push(required(sKey, `because it is defined in ${vKey}`));
    else errs.push(...completeness(p, asSchema(sProps[k]) ?? {}, sKey, vKey));
  }
  return errs;
}

/**
 * ValidateStructural: the structural schema errors of schema at path, sorted by their text as
 * kube sorts them. Empty when the schema is structural. Never mutates.
 */
export function validateStructural(schema: JSONSchemaProps, path: string): FieldError[] {
  const errs = [...invariants(schema, 'root', path), ...completenessOfJunctors(schema, schema, path, path)];
  return errs
    .map((e) => [fieldErrorMessage(e), e] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([, e]) => e);
}
