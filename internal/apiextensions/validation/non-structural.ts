/**
 * What kube's nonstructuralschema controller reports in the NonStructuralSchema condition of a
 * CRD (read in the v1 form, as kube's controller reads it): preserveUnknownFields set, or a
 * version schema that is not structural. The controllers helper turns the result into the
 * condition.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { crdAsV1 } from '../../registry/apiextensions/customresourcedefinitions/conversion.js';
import { fieldErrorsMessage, indexPath, invalid, type FieldError } from '../../validation/field-error.js';
import { openAPIV3SchemaOf } from './custom-resource-validation.js';
import { asSchema, str, type Json } from './schema-walk.js';
import { structuralConversionError, validateStructural } from './structural.js';

/** The NonStructuralSchema condition's reason and message (its status is True). */
export interface NonStructuralSchemaFinding {
  /** "Violations", or "StructuralError" when a schema cannot even be read as structural. */
  readonly reason: 'Violations' | 'StructuralError';
  readonly message: string;
  /** The violations themselves (empty for StructuralError). */
  readonly errors: readonly FieldError[];
}

/**
 * kube's calculateCondition over a CRD, given in the v1 form or in the stored form (read as v1, so
 * paths are spec.versions[i].schema.openAPIV3Schema...): undefined when every schema is structural
 * and preserveUnknownFields is not true (the condition is then removed). Never mutates.
 */
export function structuralSchemaErrors(crd: KubeObject): NonStructuralSchemaFinding | undefined {
  const given = (asSchema(crd.spec) ?? {}) as Json;
  const isStored = typeof given.version === 'string' || given.validation !== undefined;
  const spec = isStored ? ((asSchema(crdAsV1(crd).spec) ?? {}) as Json) : given;
  const errs: FieldError[] = [];
  if (spec.preserveUnknownFields === true) errs.push(invalid('spec.preserveUnknownFields', true, 'must be false'));
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  for (let i = 0; i < versions.length; i++) {
    const v = (asSchema(versions[i]) ?? {}) as Json;
    const schema = openAPIV3SchemaOf(v.schema);
    if (!schema) continue;
    const conversionError = structuralConversionError(schema);
    if (conversionError) {
      return { reason: 'StructuralError', message: `failed to check validation schema for version ${str(v.name)}: ${conversionError}`, errors: [] };
    }
    errs.push(...validateStructural(schema, `${indexPath('spec.versions', i)}.schema.openAPIV3Schema`));
  }
  if (errs.length === 0) return undefined;
  return { reason: 'Violations', message: fieldErrorsMessage(errs), errors: errs };
}
