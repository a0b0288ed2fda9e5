/**
 * selectableFields (kube's ValidateCustomResourceSelectableFields): each jsonPath a field path
 * without array notation that the structural schema specifies, outside metadata, pointing to a
 * string, boolean or integer; unique; at most eight. Never mutates.
 */
import { childPath, duplicate, indexPath, invalid, required, tooMany, type FieldError } from '../../validation/field-error.js';
import type { JSONSchemaProps } from '../interface.js';
import { asSchema, isSet, str } from './schema-walk.js';

/** kube's MaxSelectableFields. */
export const maxSelectableFields = 8;

/** Splits a field path into ".", "[", "]" and the text between them (single quotes kept whole). */
function tokenize(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i] as string;
    if (c === '.' || c === '[' || c === ']') {
      out.push(c);
      i++;
    } else if (c === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      out.push(path.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < path.length && !'.[]'.includes(path[j] as string)) j++;
      out.push(path.slice(i, j));
      i = j;
    }
  }
  return out;
}

/** The resolved field: its rendered path, root segment and schema. */
interface ResolvedPath {
  readonly path: string;
  readonly root: string;
  readonly schema: JSONSchemaProps | undefined;
}

/**
 * kube's cel.ValidFieldPath without array notation: resolves jsonPath through properties and
 * additionalProperties of schema, or throws an Error with kube's text.
 */
export function resolveFieldPath(jsonPath: string, schema: JSONSchemaProps): ResolvedPath {
  const tokens = tokenize(jsonPath);
  let current: JSONSchemaProps | undefined = schema;
  let rendered: string | undefined;
  let root = '';
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i] as string;
    if (tok === '[') throw new Error('array notation is not allowed');
    if (tok !== '.') throw new Error(`expected [ or . but got: ${tok}`);
    const name = tokens[++i];
    if (name === undefined) throw new Error('unexpected end of JSON path');
    const props = asSchema(current?.properties) as Record<string, unknown> | undefined;
    if (props) {
      if (!Object.hasOwn(props, name)) throw new Error('does not refer to a valid field');
      current = asSchema(props[name]);
      rendered = rendered === undefined ? name : `${rendered}.${name}`;
    } else if (isSet(current?.additionalProperties)) {
      current = asSchema(current?.additionalProperties);
      rendered = `${rendered ?? ''}[${name}]`;
    } else {
      throw new Error('does not refer to a valid field');
    }
    if (!root) root = name;
  }
  return { path: rendered ?? '<nil>', root, schema: current };
}

/** The selectableFields list at path against the version's schema. */
export function validateSelectableFields(fields: readonly unknown[], schema: JSONSchemaProps, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((raw, i) => {
    const p = childPath(indexPath(path, i), 'jsonPath');
    const jsonPath = str((asSchema(raw) as Record<string, unknown> | undefined)?.jsonPath);
    if (!jsonPath) {
      errs.push(required(p, ''));
      return;
    }
    let resolved: ResolvedPath;
    try {
      resolved = resolveFieldPath(jsonPath, schema);
    } catch (e) {
      errs.push(invalid(p, jsonPath, `is an invalid path: ${(e as Error).message}`));
      return;
    }
    if (resolved.root === 'metadata') errs.push(invalid(p, jsonPath, 'must not point to fields in metadata'));
    const type = str(resolved.schema?.type);
    if (type !== 'string' && type !== 'boolean' && type !== 'integer') {
      errs.push(invalid(p, jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    if (unique.has(resolved.path)) errs.push(duplicate(p, jsonPath));
    else unique.add(resolved.path);
  });
  if (unique.size > maxSelectableFields) errs.push(tooMany(path, unique.size, maxSelectableFields));
  return errs;
}
