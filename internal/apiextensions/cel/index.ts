/**
 * x-kubernetes-validations: compiling a schema's CEL rules for serving, and checking them when a
 * CRD is written. PLACEHOLDER (scaffold): the cr-cel work replaces this file.
 */
import type { FieldError } from '../../validation/field-error.js';
import type { CelValidator, JSONSchemaProps } from '../interface.js';

/** The rules of schema compiled for serving; undefined when it has none. */
export function compileCelValidator(_schema: JSONSchemaProps): CelValidator | undefined {
  return undefined;
}

/**
 * CRD validation of the rules in schema (at fieldPath, e.g. "spec.validation.openAPIV3Schema" of
 * a version): compile errors, invalid reasons and fieldPaths, messageExpression errors, and kube's
 * estimated cost limits. oldSchema: the same version's schema before an update (rules that did
 * not change are not re-checked against the cost limit, as kube ratchets them).
 */
export function validateCrdCelRules(_schema: JSONSchemaProps, _fieldPath: string, _oldSchema?: JSONSchemaProps): FieldError[] {
  return [];
}
