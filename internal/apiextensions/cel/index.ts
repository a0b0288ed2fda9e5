/**
 * x-kubernetes-validations: compiling a schema's CEL rules for serving (validator.ts walks objects
 * along the nodes that have rules), and checking them when a CRD is written (crd-validation.ts:
 * compile errors, reasons, fieldPaths, transition rules and kube's estimated cost limits).
 */
import type { FieldError } from '../../validation/field-error.js';
import type { CelValidator, JSONSchemaProps } from '../interface.js';
import { validateSchemaRules } from './crd-validation.js';
import { newCelValidator, validateValue } from './validator.js';

/**
 * The rules of schema (a version's openAPIV3Schema) compiled for serving, once per CRD version;
 * undefined when it has none. The validator is stateless and never mutates what it validates.
 */
export function compileCelValidator(schema: JSONSchemaProps): CelValidator | undefined {
  return newCelValidator(schema);
}

/**
 * CRD validation of the rules in schema (at fieldPath, e.g. "spec.validation.openAPIV3Schema" of
 * a version): compile errors, invalid reasons and fieldPaths, messageExpression errors, and kube's
 * estimated cost limits. oldSchema: the same version's schema before an update (rules that did
 * not change are not re-checked against the cost limit, as kube ratchets them).
 */
export function validateCrdCelRules(schema: JSONSchemaProps, fieldPath: string, oldSchema?: JSONSchemaProps): FieldError[] {
  return validateSchemaRules(schema, fieldPath, oldSchema);
}

/**
 * The x-kubernetes-validations of schema (a node of a CRD schema, with everything below it)
 * evaluated against value, errors under fieldPath (e.g. "...properties[spec].default"), as kube
 * checks a default against the rules at CRD writes; isResourceRoot for the root or an embedded
 * resource. Transition rules see oldSelf == self. Compiles per call (CRD writes only).
 */
export function validateCelRulesOnValue(schema: JSONSchemaProps, value: unknown, fieldPath: string, isResourceRoot = false): FieldError[] {
  return validateValue(schema, value, fieldPath, isResourceRoot);
}
