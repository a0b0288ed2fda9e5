/**
 * Reads of the untyped JSON objects printers receive. Every read tolerates a missing or mistyped
 * value and answers the Go zero value kube's printers would see after decoding (empty string,
 * zero, empty list), so a half-filled object still prints. Never mutates.
 */
import { setOwnKey } from '../../../collections/own-key.js';

/** A decoded JSON object. */
export type Json = Record<string, unknown>;

/** v as an object, or undefined when it is null, an array or not an object. */
export function asObject(v: unknown): Json | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}

/** The object at o[key], or undefined (a Go nil pointer). */
export function objectAt(o: Json | undefined, key: string): Json | undefined {
  return asObject(o?.[key]);
}

/** The object at the end of path, or undefined when any step is missing. */
export function objectPath(o: Json | undefined, ...path: string[]): Json | undefined {
  let cur = o;
  for (const key of path) cur = objectAt(cur, key);
  return cur;
}

/** The string at o[key], or '' when absent or not a string. */
export function stringAt(o: Json | undefined, key: string): string {
  const v = o?.[key];
  return typeof v === 'string' ? v : '';
}

/** The string at o[key], or undefined when absent or not a string (a Go *string). */
export function optionalString(o: Json | undefined, key: string): string | undefined {
  const v = o?.[key];
  return typeof v === 'string' ? v : undefined;
}

/** The integer at o[key], or 0 when absent or not a number. */
export function intAt(o: Json | undefined, key: string): number {
  const v = o?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0;
}

/** The integer at o[key], or undefined when absent or not a number (a Go *int32). */
export function optionalInt(o: Json | undefined, key: string): number | undefined {
  const v = o?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : undefined;
}

/** The boolean at o[key], or undefined when absent or not a boolean (a Go *bool). */
export function optionalBool(o: Json | undefined, key: string): boolean | undefined {
  const v = o?.[key];
  return typeof v === 'boolean' ? v : undefined;
}

/** The list at o[key], or [] when absent or not a list. */
export function listAt(o: Json | undefined, key: string): unknown[] {
  const v = o?.[key];
  return Array.isArray(v) ? v : [];
}

/** The objects of the list at o[key]; a non-object element reads as {} (a zero struct). */
export function objectsAt(o: Json | undefined, key: string): Json[] {
  return listAt(o, key).map((e) => asObject(e) ?? {});
}

/** The strings of the list at o[key]; a non-string element reads as ''. */
export function stringsAt(o: Json | undefined, key: string): string[] {
  return listAt(o, key).map((e) => (typeof e === 'string' ? e : ''));
}

/** The string map at o[key] (labels, selectors); non-string values read as ''. */
export function stringMapAt(o: Json | undefined, key: string): Record<string, string> {
  const m = objectAt(o, key);
  const out: Record<string, string> = {};
  if (!m) return out;
  for (const [k, v] of Object.entries(m)) setOwnKey(out, k, typeof v === 'string' ? v : '');
  return out;
}

/** The number of keys of the map at o[key] (len of a Go map). */
export function mapSize(o: Json | undefined, key: string): number {
  const m = objectAt(o, key);
  return m ? Object.keys(m).length : 0;
}

/** The metadata of an object ({} when missing). */
export function metadataOf(obj: Json): Json {
  return objectAt(obj, 'metadata') ?? {};
}

/** metadata.name of an object, or ''. */
export function nameOf(obj: Json): string {
  return stringAt(metadataOf(obj), 'name');
}
