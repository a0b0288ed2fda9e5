/**
 * TypedValue (structured-merge-diff typed.TypedValue): a JSON value with the schema and root type
 * it is read with. Values are never mutated; every operation returns a new value or set.
 */
import type { FieldSet } from '../field-set.js';
import type { Schema, TypeRef } from '../schema.js';
import type { Value } from '../value.js';
import { compareValues, type Comparison } from './compare.js';
import { ValidationErrors } from './helpers.js';
import { mergeValues } from './merge.js';
import { reconcileFieldSetWithSchema } from './reconcile-schema.js';
import { removeItems } from './remove.js';
import { toFieldSet } from './to-field-set.js';
import { validateValue } from './validate.js';

/** A value with its type. */
export class TypedValue {
  constructor(
    readonly schema: Schema,
    readonly typeRef: TypeRef,
    readonly value: Value,
  ) {}

  /** AsTyped: validates value and wraps it; throws ValidationErrors. Duplicates in associative lists are an error unless allowed. */
  static of(schema: Schema, typeRef: TypeRef, value: Value, opts: { allowDuplicates?: boolean } = {}): TypedValue {
    const issues = validateValue(schema, typeRef, value, opts.allowDuplicates ?? false);
    if (issues.length > 0) throw new ValidationErrors(issues);
    return new TypedValue(schema, typeRef, value);
  }

  /** The same value with another value in its place (same schema and type). */
  withValue(value: Value): TypedValue {
    return new TypedValue(this.schema, this.typeRef, value);
  }

  /** Every leaf and item the value mentions. */
  toFieldSet(): FieldSet {
    return toFieldSet(this.schema, this.typeRef, this.value);
  }

  /** The configuration pso merged over this value; throws ValidationErrors. */
  merge(pso: TypedValue): TypedValue {
    this.checkSameType(pso);
    const out = mergeValues(this.schema, this.typeRef, this.value, pso.value);
    return this.withValue(out === undefined ? null : out);
  }

  /** What rhs added, removed and modified relative to this value; throws ValidationErrors. */
  compare(rhs: TypedValue): Comparison {
    this.checkSameType(rhs);
    return compareValues(this.schema, this.typeRef, this.value, rhs.value);
  }

  /** This value without the fields of the set. */
  removeItems(set: FieldSet): TypedValue {
    return this.withValue(removeItems(this.schema, this.typeRef, this.value, set, false));
  }

  /** Only the fields of the set from this value. */
  extractItems(set: FieldSet): TypedValue {
    return this.withValue(removeItems(this.schema, this.typeRef, this.value, set, true));
  }

  /** A manager's set adjusted to this value's current schema, or undefined when unchanged. */
  reconcile(set: FieldSet): FieldSet | undefined {
    return reconcileFieldSetWithSchema(set, this.schema, this.typeRef);
  }

  private checkSameType(other: TypedValue): void {
    if (other.schema !== this.schema) throw new ValidationErrors([{ path: '', message: 'expected objects with types from the same schema' }]);
    const a = this.typeRef;
    const b = other.typeRef;
    if (a.namedType !== b.namedType || a.inlined !== b.inlined || a.elementRelationship !== b.elementRelationship) {
      throw new ValidationErrors([{ path: '', message: 'expected objects of the same type' }]);
    }
  }
}
