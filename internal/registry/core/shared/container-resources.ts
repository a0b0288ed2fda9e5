/**
 * Container resource requirements (kube's validateResourceRequirements, the parts that matter
 * before full schema validation): well-formed, non-negative quantities and requests no larger
 * than limits for the overcommittable resources.
 */
import { childPath, invalid, keyPath, type FieldError } from '../../../validation/field-error.js';
import { objectAt, type JsonObject } from './json-value.js';
import { parseQuantityNanos, quantityFormatError } from './quantity.js';

const overcommittable = new Set(['cpu', 'memory', 'ephemeral-storage']);

function quantityText(v: unknown): string {
  return typeof v === 'number' ? String(v) : String(v ?? '');
}

function parsedQuantities(list: JsonObject | undefined): Map<string, bigint> {
  const parsed = new Map<string, bigint>();
  for (const name of Object.keys(list ?? {}).sort()) {
    const q = parseQuantityNanos(list?.[name]);
    if (q !== undefined) parsed.set(name, q);
  }
  return parsed;
}

/** Validates resources (a container's `resources`) at path. */
export function validateResourceRequirements(resources: JsonObject | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const limPath = childPath(path, 'limits');
  const reqPath = childPath(path, 'requests');
  const limits = objectAt(resources, 'limits');
  const requests = objectAt(resources, 'requests');
  for (const [list, listPath] of [
    [limits, limPath],
    [requests, reqPath],
  ] as const) {
    for (const name of Object.keys(list ?? {}).sort()) {
      const raw = list?.[name];
      const q = parseQuantityNanos(raw);
      const p = keyPath(listPath, name);
      if (q === undefined) errs.push(invalid(p, raw ?? null, quantityFormatError));
      else if (q < 0n) errs.push(invalid(p, quantityText(raw), 'must be greater than or equal to 0'));
    }
  }
  const lim = parsedQuantities(limits);
  for (const [name, q] of parsedQuantities(requests)) {
    const l = lim.get(name);
    if (l !== undefined && overcommittable.has(name) && q > l) {
      errs.push(
        invalid(reqPath, quantityText(requests?.[name]), `must be less than or equal to ${name} limit of ${quantityText(limits?.[name])}`),
      );
    }
  }
  return errs;
}
