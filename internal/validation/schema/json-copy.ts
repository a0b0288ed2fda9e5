/**
 * Deep copies of decoded JSON values (plain objects, arrays, scalars), without a stringify round
 * trip. The schema walks use it for free-form subtrees so their results never share containers
 * with the caller's input.
 */
import { setOwnKey } from '../../collections/own-key.js';

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep copy of a JSON value; scalars are returned as they are. */
export function copyJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyJson);
  if (isJsonObject(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwnKey(out, key, copyJson(value[key]));
    return out;
  }
  return value;
}
