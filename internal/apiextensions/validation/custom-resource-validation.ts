/**
 * One CustomResourceValidation (a version's schema, or the internal form's top-level
 * spec.validation): kube's validateCustomResourceDefinitionValidation. The root restrictions when
 * the status subresource is on, nullable at the root, the structural rules (then the defaults),
 * the keyword rules, and, once the schema is sound, the CEL rules through the cel helper.
 */
import { childPath, forbidden, invalid, type FieldError } from '../../validation/field-error.js';
import { validateCrdCelRules } from '../cel/index.js';
import type { JSONSchemaProps } from '../interface.js';
import { semanticEqual } from '../../registry/core/shared/semantic-equal.js';
import { compileVersionSchema } from '../schema/index.js';
import { unprunedDefault, validateDefaults } from './defaults.js';
import type { ValidationOptions } from './options.js';
import { validateOpenAPISchema } from './schema-props.js';
import { asSchema, isSet, str } from './schema-walk.js';
import { structuralConversionError, validateStructural } from './structural.js';

/** JSONSchemaProps keys in the Go struct's field order, with their Go names and pointer-ness. */
const fieldOrder: ReadonlyArray<readonly [string, string, 'ptr' | 'bool' | 'str' | 'coll']> = [
  ['id', 'ID', 'str'], ['$schema', 'Schema', 'str'], ['$ref', 'Ref', 'ptr'], ['description', 'Description', 'str'],
  ['type', 'Type', 'str'], ['nullable', 'Nullable', 'bool'], ['format', 'Format', 'str'], ['title', 'Title', 'str'],
  ['default', 'Default', 'ptr'], ['maximum', 'Maximum', 'ptr'], ['exclusiveMaximum', 'ExclusiveMaximum', 'bool'],
  ['minimum', 'Minimum', 'ptr'], ['exclusiveMinimum', 'ExclusiveMinimum', 'bool'], ['maxLength', 'MaxLength', 'ptr'],
  ['minLength', 'MinLength', 'ptr'], ['pattern', 'Pattern', 'str'], ['maxItems', 'MaxItems', 'ptr'], ['minItems', 'MinItems', 'ptr'],
  ['uniqueItems', 'UniqueItems', 'bool'], ['multipleOf', 'MultipleOf', 'ptr'], ['enum', 'Enum', 'coll'],
  ['maxProperties', 'MaxProperties', 'ptr'], ['minProperties', 'MinProperties', 'ptr'], ['required', 'Required', 'coll'],
  ['items', 'Items', 'ptr'], ['allOf', 'AllOf', 'coll'], ['oneOf', 'OneOf', 'coll'], ['anyOf', 'AnyOf', 'coll'], ['not', 'Not', 'ptr'],
  ['properties', 'Properties', 'coll'], ['additionalProperties', 'AdditionalProperties', 'ptr'],
  ['patternProperties', 'PatternProperties', 'coll'], ['dependencies', 'Dependencies', 'coll'], ['additionalItems', 'AdditionalItems', 'ptr'],
  ['definitions', 'Definitions', 'coll'], ['externalDocs', 'ExternalDocs', 'ptr'], ['example', 'Example', 'ptr'],
  ['x-kubernetes-preserve-unknown-fields', 'XPreserveUnknownFields', 'ptr'], ['x-kubernetes-embedded-resource', 'XEmbeddedResource', 'bool'],
  ['x-kubernetes-int-or-string', 'XIntOrString', 'bool'], ['x-kubernetes-list-map-keys', 'XListMapKeys', 'coll'],
  ['x-kubernetes-list-type', 'XListType', 'ptr'], ['x-kubernetes-map-type', 'XMapType', 'ptr'], ['x-kubernetes-validations', 'XValidations', 'coll'],
];

const allowedAtRoot = [
  'Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength', 'MinLength',
  'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties', 'ExternalDocs', 'Example',
  'XPreserveUnknownFields', 'XValidations',
];

function isZero(v: unknown, kind: 'ptr' | 'bool' | 'str' | 'coll'): boolean {
  if (!isSet(v)) return true;
  if (kind === 'bool') return v === false;
  if (kind === 'str') return v === '';
  return false;
}

/** With the status subresource on, status is validated as properties[status]: the root is restricted. */
function validateRootWithStatus(schema: JSONSchemaProps, path: string): FieldError[] {
  for (const [key, goName, kind] of fieldOrder) {
    const v = (schema as Record<string, unknown>)[key];
    if (isZero(v, kind)) continue;
    if (goName === 'Type') {
      if (v !== 'object') return [invalid(childPath(path, 'openAPIV3Schema.type'), v, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      continue;
    }
    if (!allowedAtRoot.includes(goName)) {
      return [invalid(childPath(path, 'openAPIV3Schema'), schema, `only [${allowedAtRoot.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`)];
    }
  }
  return [];
}

/** Where the validation sits and what it is checked with. */
export interface CustomResourceValidationInput {
  /** The CustomResourceValidation object ({openAPIV3Schema}) or undefined. */
  readonly validation: unknown;
  readonly statusEnabled: boolean;
  /** e.g. "spec.validation" or "spec.versions[1].schema". */
  readonly path: string;
  readonly opts: ValidationOptions;
  /** The same schema before an update, for the CEL helper's cost ratcheting. */
  readonly oldSchema?: JSONSchemaProps | undefined;
}

/** The errors of one CustomResourceValidation. Never mutates. */
export function validateCustomResourceValidation(input: CustomResourceValidationInput): FieldError[] {
  const { statusEnabled, path, opts } = input;
  const validation = asSchema(input.validation) as Record<string, unknown> | undefined;
  if (!validation) return [];
  const schema = asSchema(validation.openAPIV3Schema);
  if (!schema) return [];
  const schemaPath = childPath(path, 'openAPIV3Schema');
  const errs: FieldError[] = [];
  // A schema an update leaves as it was has had its defaults checked and its validator built when
  // it was written: both cost a schema compile, so they are not redone (kube likewise ratchets
  // checks of unchanged schemas).
  const unchanged = input.oldSchema !== undefined && semanticEqual(input.oldSchema, schema);
  if (statusEnabled) errs.push(...validateRootWithStatus(schema, path));
  if (schema.nullable === true) errs.push(forbidden(childPath(path, 'openAPIV3Schema.nullable'), 'nullable cannot be true at the root'));
  let structuralInitErrs: FieldError[] = [];
  let celAllowed = false;
  if (opts.requireStructuralSchema) {
    const conversionError = structuralConversionError(schema);
    if (conversionError) structuralInitErrs = [invalid(schemaPath, '', conversionError)];
    else {
      const structuralErrs = validateStructural(schema, schemaPath);
      if (structuralErrs.length > 0) errs.push(...structuralErrs);
      else if (unchanged) celAllowed = true;
      else {
        let defaultErrs = validateDefaults(schema, schemaPath, true);
        const unpruned = (e: FieldError) => e.detail === unprunedDefault;
        const requirePruned = opts.requirePrunedDefaults;
        if (defaultErrs.some(unpruned) && !(typeof requirePruned === 'function' ? requirePruned() : requirePruned)) {
          defaultErrs = defaultErrs.filter((e) => !unpruned(e));
        }
        if (defaultErrs.length > 0) errs.push(...defaultErrs);
        else celAllowed = true;
      }
    }
  }
  const schemaErrs = validateOpenAPISchema(schema, schemaPath, true, opts);
  errs.push(...schemaErrs);
  // As kube does, CEL rules are compiled only over a schema that is otherwise sound: errors
  // against a broken schema would not be actionable.
  if (celAllowed && schemaErrs.length === 0) errs.push(...validateCrdCelRules(schema, schemaPath, input.oldSchema));
  if (errs.length === 0) errs.push(...structuralInitErrs);
  // As kube does, make sure a validator can be built from a schema that passed every rule.
  if (errs.length === 0 && !unchanged) {
    try {
      compileVersionSchema(schema);
    } catch (e) {
      errs.push(invalid(path, '', `error building validator: ${(e as Error).message}`));
    }
  }
  return errs;
}

/** The openAPIV3Schema of a CustomResourceValidation, if any. */
export function openAPIV3SchemaOf(validation: unknown): JSONSchemaProps | undefined {
  return asSchema((asSchema(validation) as Record<string, unknown> | undefined)?.openAPIV3Schema);
}

/** A schema type outside OpenAPI v3's types (kube's SchemaHasInvalidTypes predicate on one node). */
export function hasInvalidType(s: JSONSchemaProps): boolean {
  const t = str(s.type);
  return t.length > 0 && !['string', 'number', 'integer', 'boolean', 'array', 'object'].includes(t);
}
