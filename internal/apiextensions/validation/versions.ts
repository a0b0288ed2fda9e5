/**
 * One entry of spec.versions (kube's validateCustomResourceDefinitionVersion): the deprecation
 * warning, the version's own schema, subresources, printer columns and selectable fields; plus
 * deprecationWarning's text rules. Never mutates.
 */
import { childPath, indexPath, invalid, type FieldError } from '../../validation/field-error.js';
import { validateColumn, validateSubresources } from './columns.js';
import { openAPIV3SchemaOf, validateCustomResourceValidation } from './custom-resource-validation.js';
import type { JSONSchemaProps } from '../interface.js';
import type { ValidationOptions } from './options.js';
import { asSchema, isSet, str, type Json } from './schema-walk.js';
import { validateSelectableFields } from './selectable-fields.js';

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const control = /^\p{Cc}$/u;

/** validateDeprecationWarning: the texts of the problems with a version's deprecationWarning. */
export function deprecationWarningErrors(deprecated: boolean, warning: unknown): string[] {
  if (!deprecated && isSet(warning)) return ['can only be set for deprecated versions'];
  if (!isSet(warning)) return [];
  const w = str(warning);
  const errs: string[] = [];
  if (Buffer.byteLength(w, 'utf8') > 256) errs.push('must be <= 256 characters long');
  if (w.length === 0) errs.push('must not be an empty string');
  let index = 0;
  for (const ch of w) {
    if (!printable.test(ch)) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${index}`);
      break;
    }
    if (control.test(ch)) {
      errs.push(`must only contain printable UTF-8 characters; control character found at index ${index}`);
      break;
    }
    index += Buffer.byteLength(ch, 'utf8');
  }
  return errs;
}

/** What validateVersion needs besides the version itself. */
export interface VersionContext {
  readonly index: number;
  readonly statusEnabled: boolean;
  readonly opts: ValidationOptions;
  /** The internal form's shared spec.validation schema, which applies when the version has none. */
  readonly topLevelSchema: JSONSchemaProps | undefined;
}

/** One spec.versions entry (internal form). */
export function validateVersion(version: Json, ctx: VersionContext): FieldError[] {
  const path = indexPath('spec.versions', ctx.index);
  const errs: FieldError[] = [];
  for (const m of deprecationWarningErrors(version.deprecated === true, version.deprecationWarning)) {
    errs.push(invalid(childPath(path, 'deprecationWarning'), str(version.deprecationWarning), m));
  }
  const name = str(version.name);
  errs.push(
    ...validateCustomResourceValidation({
      validation: version.schema,
      statusEnabled: ctx.statusEnabled,
      path: childPath(path, 'schema'),
      opts: ctx.opts,
      oldSchema: ctx.opts.oldSchemas?.get(name),
    }),
  );
  errs.push(...validateSubresources(version.subresources, childPath(path, 'subresources')));
  const columns = Array.isArray(version.additionalPrinterColumns) ? version.additionalPrinterColumns : [];
  columns.forEach((c, i) => errs.push(...validateColumn((asSchema(c) ?? {}) as Json, indexPath(childPath(path, 'additionalPrinterColumns'), i))));
  const selectable = Array.isArray(version.selectableFields) ? version.selectableFields : [];
  if (selectable.length > 0) {
    const schema = openAPIV3SchemaOf(version.schema) ?? ctx.topLevelSchema;
    if (!schema) errs.push(invalid(childPath(path, 'selectableFields'), '', 'selectableFields may only be set when version.schema.openAPIV3Schema is not included'));
    else errs.push(...validateSelectableFields(selectable, schema, childPath(path, 'selectableFields')));
  }
  return errs;
}
