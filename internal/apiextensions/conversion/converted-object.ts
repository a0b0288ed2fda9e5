/**
 * kube's checks of an object a conversion returns (validateConvertedObject, restoreObjectMeta):
 * kind, name, namespace and uid must not change; the result keeps the original's metadata with
 * only the converter's labels and annotations, which are validated when they changed.
 */
import type { KubeObject } from '../../../api/meta/types.js';
import { validateAnnotations, validateLabels } from '../../registry/generic/object-meta-validation.js';
import { fieldErrorsMessage } from '../../validation/field-error.js';
import { goTypeOf } from './go-type.js';

type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** unstructured's GetX: a string field of metadata, "" when absent or not a string. */
function metaString(obj: JsonObject, field: string): string {
  const meta = obj.metadata;
  if (!isObject(meta)) return '';
  const v = meta[field];
  return typeof v === 'string' ? v : '';
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The error text when converted changed what must stay (kube's validateConvertedObject); undefined when fine. */
export function validateConvertedObject(original: KubeObject, converted: JsonObject): string | undefined {
  const o = original as unknown as JsonObject;
  if (str(o.kind) !== str(converted.kind)) return `must have the same kind: ${str(o.kind)} != ${str(converted.kind)}`;
  for (const [field, label] of [
    ['name', 'name'],
    ['namespace', 'namespace'],
    ['uid', 'UID'],
  ] as const) {
    const e = metaString(o, field);
    const a = metaString(converted, field);
    if (e !== a) return `must have the same ${label}: ${e} != ${a}`;
  }
  return undefined;
}

/**
 * converted with original's metadata and converted's labels and annotations (kube's
 * restoreObjectMeta), or the error text. converted is not modified; original's metadata is copied.
 */
export function restoreObjectMeta(original: KubeObject, converted: JsonObject): { object: KubeObject } | { error: string } {
  const o = original as unknown as JsonObject;
  const hasConverted = 'metadata' in converted;
  const hadOriginal = 'metadata' in o;
  if (!hasConverted && !hadOriginal) return { object: converted as unknown as KubeObject };
  if (hadOriginal && !hasConverted) return { error: 'missing metadata in converted object' };
  const convertedMeta = converted.metadata;
  if (!isObject(convertedMeta)) return { error: `invalid metadata of type ${goTypeOf(convertedMeta)} in converted object` };
  const originalMeta = hadOriginal ? o.metadata : {};
  if (!isObject(originalMeta)) return { error: `invalid metadata of type ${goTypeOf(originalMeta)} in input object` };
  const resultMeta: JsonObject = hadOriginal ? structuredClone(originalMeta) : {};
  for (const field of ['labels', 'annotations'] as const) {
    const given = convertedMeta[field];
    if (given === undefined || given === null) {
      delete resultMeta[field];
      continue;
    }
    if (!isObject(given)) return { error: `invalid metadata.${field} of type ${goTypeOf(given)} in converted object` };
    const before = isObject(originalMeta[field]) ? (originalMeta[field] as JsonObject) : {};
    let changed = Object.keys(before).length !== Object.keys(given).length;
    for (const [k, v] of Object.entries(given)) {
      if (typeof v !== 'string') return { error: `metadata.${field}[${k}] must be a string, but is ${goTypeOf(v)} in converted object` };
      if (before[k] !== v) changed = true;
    }
    if (changed) {
      // kube validates annotations under the path "metadata.annotation".
      const errs = field === 'labels' ? validateLabels(given, 'metadata.labels') : validateAnnotations(given, 'metadata.annotation');
      if (errs.length > 0) return { error: fieldErrorsMessage(errs) };
    }
    resultMeta[field] = { ...given };
  }
  return { object: { ...converted, metadata: resultMeta } as unknown as KubeObject };
}
