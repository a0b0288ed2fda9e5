/**
 * How defaulting reads "unset" in decoded JSON: kube's defaulters run on Go structs, where an
 * absent field, a JSON null and (for non-pointer fields) the zero value all look alike. These
 * predicates answer that question for one field so defaulters fill exactly what Go would fill.
 */

/** A pointer field that Go would see as nil: absent or null. */
export function isNil(v: unknown): boolean {
  return v === undefined || v === null;
}

/** A non-pointer string field at Go's zero value: absent, null or "". */
export function isEmptyString(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

/** A non-pointer number field at Go's zero value: absent, null or 0. */
export function isZeroNumber(v: unknown): boolean {
  return v === undefined || v === null || v === 0;
}

/** Each element of list[key] that is an object, for defaulters that walk a list in place. */
export function objectsIn(o: Record<string, unknown> | undefined, key: string): Record<string, unknown>[] {
  const list = o?.[key];
  if (!Array.isArray(list)) return [];
  return list.filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null && !Array.isArray(e));
}

/** o[key] when it is an object, else undefined; defaulters leave a mistyped value for validation to reject. */
export function childObject(o: Record<string, unknown> | undefined, key: string): Record<string, unknown> | undefined {
  const v = o?.[key];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** o[key] as an object, created when it is absent or null (Go's non-pointer struct); undefined when mistyped. */
export function structAt(o: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  if (isNil(o[key])) o[key] = {};
  return childObject(o, key);
}
