/**
 * Typed reads of the untyped JSON objects strategies receive. Objects arrive as decoded JSON
 * without a schema check yet, so every read tolerates a missing or mistyped value and answers the
 * Go zero value kube would see after decoding (empty string, empty list, false). Never mutates.
 */

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** v as an object, or undefined when it is not a (non-array) object. */
export function asObject(v: unknown): JsonObject | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : undefined;
}

/** The object at o[key], or undefined. */
export function objectAt(o: JsonObject | undefined, key: string): JsonObject | undefined {
  return asObject(o?.[key]);
}

/** The string at o[key], or '' (Go's zero string) when absent or not a string. */
export function stringAt(o: JsonObject | undefined, key: string): string {
  const v = o?.[key];
  return typeof v === 'string' ? v : '';
}

/** The number at o[key], or undefined when absent or not a number. */
export function numberAt(o: JsonObject | undefined, key: string): number | undefined {
  const v = o?.[key];
  return typeof v === 'number' ? v : undefined;
}

/** The list at o[key], or [] when absent or not a list. */
export function arrayAt(o: JsonObject | undefined, key: string): unknown[] {
  const v = o?.[key];
  return Array.isArray(v) ? v : [];
}

/** The boolean at o[key] as kube's strconv.FormatBool renders it ("false" when absent). */
export function boolText(o: JsonObject | undefined, key: string): string {
  return o?.[key] === true ? 'true' : 'false';
}

/** The object at obj[key], created (and stored) when absent; for prepareFor* hooks that may mutate. */
export function ensureObject(o: JsonObject, key: string): JsonObject {
  const existing = asObject(o[key]);
  if (existing) return existing;
  const created: JsonObject = {};
  o[key] = created;
  return created;
}

/** Sets o[key] to a deep copy of value, or deletes it when value is undefined. */
export function setOrDelete(o: JsonObject, key: string, value: unknown): void {
  if (value === undefined) delete o[key];
  else o[key] = structuredClone(value);
}
