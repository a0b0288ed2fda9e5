/**
 * The key/value maps of ConfigMap (data, binaryData) and Secret (data): keys are config keys,
 * base64 values decode, and the whole payload stays within kube's 1 MiB (MaxSecretSize).
 */
import { forbidden, invalid, keyPath, type FieldError } from '../../../validation/field-error.js';
import { utf8Length } from '../../../validation/label-values.js';
import { base64DecodedLength, base64Error } from './base64.js';
import { isConfigMapKey } from './config-key.js';
import { asObject, type JsonObject } from './json-value.js';
import { semanticEqual } from './semantic-equal.js';

/** kube's MaxSecretSize, also the ConfigMap limit. */
export const maxSecretSize = 1024 * 1024;

/** The text kube gives for a change to an immutable ConfigMap or Secret. */
export const immutableWhenSetMsg = 'field is immutable when `immutable` is set';

/** A data map's entries sorted by key (kube walks a Go map; a fixed order keeps errors stable). */
export function sortedEntries(map: unknown): Array<[string, unknown]> {
  return Object.entries(asObject(map) ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Invalid errors for every key of map at path that is not a config key. */
export function validateConfigKeys(map: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [key] of sortedEntries(map)) for (const msg of isConfigMapKey(key)) errs.push(invalid(keyPath(path, key), key, msg));
  return errs;
}

/** How a value is reported when it is not base64: Secret contents are never echoed. */
export type Redaction = 'redact' | 'show';

/**
 * Checks that every value of map is a base64 string (as Go decodes a []byte) and returns the
 * errors and the decoded byte total.
 */
export function validateBase64Values(map: unknown, path: string, redaction: Redaction): { errs: FieldError[]; bytes: number } {
  const errs: FieldError[] = [];
  let bytes = 0;
  for (const [key, value] of sortedEntries(map)) {
    if (value === null) continue;
    const shown = redaction === 'redact' ? '<secret contents redacted>' : value;
    if (typeof value !== 'string') {
      errs.push(invalid(keyPath(path, key), shown, 'must be a base64-encoded string'));
      continue;
    }
    const err = base64Error(value);
    if (err) errs.push(invalid(keyPath(path, key), shown, err));
    else bytes += base64DecodedLength(value);
  }
  return { errs, bytes };
}

/** String values of a ConfigMap's data, with their UTF-8 byte total. */
export function validateStringValues(map: unknown, path: string): { errs: FieldError[]; bytes: number } {
  const errs: FieldError[] = [];
  let bytes = 0;
  for (const [key, value] of sortedEntries(map)) {
    if (value === null) continue;
    if (typeof value !== 'string') errs.push(invalid(keyPath(path, key), value, 'must be a string'));
    else bytes += utf8Length(value);
  }
  return { errs, bytes };
}

/**
 * The rules of an object whose `immutable` was true: it stays true and the listed maps keep their
 * content. Returns no errors when old was not immutable.
 */
export function validateImmutableData(obj: JsonObject, old: JsonObject, fields: readonly string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push(forbidden('immutable', immutableWhenSetMsg));
  for (const f of fields) if (!semanticEqual(obj[f], old[f])) errs.push(forbidden(f, immutableWhenSetMsg));
  return errs;
}
