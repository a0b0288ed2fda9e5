/**
 * Validation of a value against a type (structured-merge-diff typed/validate.go): scalars of the
 * right kind, lists and maps where the schema says so, no field the schema does not declare, and
 * (unless duplicates are allowed, as for the objects of non-apply writes) no two items of an
 * associative list with the same key.
 */
import { pathElementToString, serializePathElement, type PathElement } from '../path-element.js';
import { mapChildType, type Schema, type TypeRef } from '../schema.js';
import type { Value } from '../value.js';
import { asList, asMap, deduceAtom, handleAtom, issue, listItemToPathElement, unresolved, validateScalar, withPrefix, type ValidationIssue } from './helpers.js';

/** Every violation of the schema in value; empty when it conforms. */
export function validateValue(schema: Schema, tr: TypeRef | undefined, value: Value, allowDuplicates: boolean): ValidationIssue[] {
  const walk = (t: TypeRef | undefined, v: Value): ValidationIssue[] => {
    const resolved = schema.resolve(t);
    if (!resolved) return issue(unresolved(t));
    return handleAtom<ValidationIssue[]>(deduceAtom(resolved, v), t, {
      scalar: (s) => validateScalar(s, v, ''),
      invalid: (m) => issue(m),
      list: (l) => {
        const { list, error } = asList(v);
        if (error) return issue(error);
        const errs: ValidationIssue[] = [];
        if (!list) return errs;
        const observed = new Set<string>();
        for (let i = 0; i < list.length; i++) {
          const child = list[i]!;
          let pe: PathElement;
          if (l.elementRelationship !== 'associative') {
            pe = { kind: 'index', index: i };
          } else {
            try {
              pe = listItemToPathElement(schema, l, child);
            } catch (err) {
              errs.push(...issue(`element ${i}: ${(err as Error).message}`));
              return errs;
            }
            const key = serializePathElement(pe);
            if (observed.has(key) && !allowDuplicates) errs.push(...issue(`duplicate entries for key ${pathElementToString(pe)}`));
            observed.add(key);
          }
          errs.push(...withPrefix(walk(l.elementType, child), pathElementToString(pe)));
        }
        return errs;
      },
      map: (m) => {
        const { map, error } = asMap(v);
        if (error) return issue(error);
        const errs: ValidationIssue[] = [];
        if (!map) return errs;
        for (const key of Object.keys(map)) {
          const childType = mapChildType(m, key);
          if (!childType) {
            errs.push(...withPrefix(issue('field not declared in schema'), `.${key}`));
            break;
          }
          errs.push(...withPrefix(walk(childType, map[key]!), `.${key}`));
        }
        return errs;
      },
    });
  };
  return walk(tr, value);
}
