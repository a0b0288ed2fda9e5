/**
 * The options of an update (kube's ValidateCustomResourceDefinitionUpdate): each rule the stored
 * object already breaks is relaxed so the object stays writable; names freeze once Established;
 * an invalid caBundle may stay invalid. Never mutates.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import type { JSONSchemaProps } from '../interface.js';
import { hasInvalidCABundle } from './conversion.js';
import { hasInvalidType, openAPIV3SchemaOf } from './custom-resource-validation.js';
import { unprunedDefault, validateDefaults } from './defaults.js';
import { validateMapListKeysMapSet } from './list-types.js';
import type { ValidationOptions } from './options.js';
import { asSchema, isSet, itemsSchema, type Json } from './schema-walk.js';
import { schemasOf, specHasSchemaWith, versionsOf } from './spec.js';
import { structuralConversionError, validateStructural } from './structural.js';

/** The CRD's condition of the given type is True. */
export function isConditionTrue(crd: KubeObject, type: string): boolean {
  const conditions = (asSchema(crd.status) as Json | undefined)?.conditions;
  return Array.isArray(conditions) && conditions.some((c) => (asSchema(c) as Json | undefined)?.type === type && (asSchema(c) as Json).status === 'True');
}

const nonStructural = new WeakMap<JSONSchemaProps, boolean>();

/** kube's schemaIsNonStructural (remembered per schema object: an update asks more than once). */
export function isNonStructural(schema: JSONSchemaProps): boolean {
  let found = nonStructural.get(schema);
  if (found === undefined) {
    found = structuralConversionError(schema) !== undefined || validateStructural(schema, 'openAPIV3Schema').length > 0;
    nonStructural.set(schema, found);
  }
  return found;
}

function hasNonAtomicSetType(s: JSONSchemaProps): boolean {
  const items = itemsSchema(s);
  if (s['x-kubernetes-list-type'] !== 'set' || !items) return false;
  if (items.type === 'array') return isSet(items['x-kubernetes-list-type']) && items['x-kubernetes-list-type'] !== 'atomic';
  if (items.type === 'object') return items['x-kubernetes-map-type'] !== 'atomic';
  return false;
}

function hasUnprunedDefaults(schema: JSONSchemaProps): boolean {
  if (isNonStructural(schema)) return false;
  return validateDefaults(schema, 'openAPIV3Schema', true).some((e) => e.detail === unprunedDefault);
}

function allVersionsSpecifySchema(spec: Json): boolean {
  return !!openAPIV3SchemaOf(spec.validation) || versionsOf(spec).every((v) => !!openAPIV3SchemaOf(v.schema));
}

function hasRecognizedReviewVersionOrEmpty(conversion: Json | undefined): boolean {
  const versions = Array.isArray(conversion?.conversionReviewVersions) ? conversion.conversionReviewVersions : [];
  return versions.length === 0 || versions.some((v) => v === 'v1' || v === 'v1beta1');
}

/** The options for updating old (stored internal form) to a new object. */
export function updateOptions(old: KubeObject): ValidationOptions {
  const oldSpec = (asSchema(old.spec) ?? {}) as Json;
  const conversion = asSchema(oldSpec.conversion) as Json | undefined;
  const established = isConditionTrue(old, 'Established');
  const oldSchemas = new Map<string, JSONSchemaProps>();
  let prunedDefaults: boolean | undefined;
  const top = openAPIV3SchemaOf(oldSpec.validation);
  // A schema may move between the top level and the versions without changing (the stored form
  // hoists what every version shares): look it up by version name either way.
  for (const v of versionsOf(oldSpec)) {
    const s = openAPIV3SchemaOf(v.schema) ?? top;
    if (s && typeof v.name === 'string') oldSchemas.set(v.name, s);
  }
  return {
    allowDefaults: true,
    requireRecognizedConversionReviewVersion: !conversion || hasRecognizedReviewVersionOrEmpty(conversion),
    requireImmutableNames: established,
    requireOpenAPISchema: allVersionsSpecifySchema(oldSpec),
    requireValidPropertyType: !specHasSchemaWith(oldSpec, hasInvalidType),
    requireStructuralSchema: !schemasOf(oldSpec).some(isNonStructural),
    requirePrunedDefaults: () => (prunedDefaults ??= !schemasOf(oldSpec).some(hasUnprunedDefaults)),
    requireAtomicSetType: !specHasSchemaWith(oldSpec, hasNonAtomicSetType),
    requireMapListKeysMapSetValidation: !specHasSchemaWith(oldSpec, (s) => validateMapListKeysMapSet(s, '').length > 0),
    allowInvalidCABundle: !established || hasInvalidCABundle(conversion),
    oldSchemas,
    ...(top ? { oldTopLevelSchema: top } : {}),
  };
}
