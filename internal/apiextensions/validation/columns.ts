/**
 * Printer columns and the scale subresource (kube's ValidateCustomResourceColumnDefinition,
 * ValidateCustomResourceDefinitionSubresources and validateSimpleJSONPath). Never mutate.
 */
import { childPath, invalid, required, type FieldError } from '../../validation/field-error.js';
import { asJson, isSet, str, type Json } from './schema-walk.js';

const printerColumnTypes = ['boolean', 'date', 'integer', 'number', 'string'];
const printerColumnFormats = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

/** validateSimpleJSONPath: a path in dot notation starting with ".". */
export function validateSimpleJSONPath(s: string, path: string): FieldError[] {
  if (s.length === 0) return [invalid(path, s, 'must not be empty')];
  if (s[0] !== '.') return [invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

/** One additionalPrinterColumns entry at path (the internal form names the path field JSONPath). */
export function validateColumn(col: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(col.name)) errs.push(required(childPath(path, 'name'), ''));
  const type = str(col.type);
  const typeMsg = `must be one of ${printerColumnTypes.join(',')}`;
  if (!type) errs.push(required(childPath(path, 'type'), typeMsg));
  else if (!printerColumnTypes.includes(type)) errs.push(invalid(childPath(path, 'type'), type, typeMsg));
  const format = str(col.format);
  if (format && !printerColumnFormats.includes(format)) errs.push(invalid(childPath(path, 'format'), format, `must be one of ${printerColumnFormats.join(',')}`));
  const jsonPath = str(col.JSONPath);
  if (!jsonPath) errs.push(required(childPath(path, 'JSONPath'), ''));
  else errs.push(...validateSimpleJSONPath(jsonPath, childPath(path, 'JSONPath')));
  return errs;
}

/** The subresources (status, scale) at path. */
export function validateSubresources(subresources: unknown, path: string): FieldError[] {
  const scale = asJson(asJson(subresources)?.scale);
  if (!scale) return [];
  const errs: FieldError[] = [];
  const check = (key: string, prefixes: string[], detail: string, isRequired: boolean) => {
    const p = childPath(path, `scale.${key}`);
    const v = str(scale[key]);
    if (!v) {
      if (isRequired) errs.push(required(p, ''));
      return;
    }
    const pathErrs = validateSimpleJSONPath(v, p);
    if (pathErrs.length > 0) errs.push(...pathErrs);
    else if (!prefixes.some((x) => v.startsWith(x))) errs.push(invalid(p, v, detail));
  };
  check('specReplicasPath', ['.spec.'], 'should be a json path under .spec', true);
  check('statusReplicasPath', ['.status.'], 'should be a json path under .status', true);
  if (isSet(scale.labelSelectorPath)) check('labelSelectorPath', ['.spec.', '.status.'], 'should be a json path under either .spec or .status', false);
  return errs;
}
