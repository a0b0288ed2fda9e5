/**
 * Quantity checks (kube's ValidateResourceQuantityValue, ValidateNonnegativeQuantity and
 * ValidatePositiveQuantityValue) over the exact parser in core/shared/quantity.ts. A value that
 * does not parse is reported with the decoder's message, as kube refuses it while decoding.
 */
import { invalid, keyPath, type FieldError } from '../../validation/field-error.js';
import { parseQuantityNanos, quantityFormatError } from '../core/shared/quantity.js';
import { asObject } from '../core/shared/json-value.js';

/** kube's isNegativeErrorMsg. */
export const isNegativeErrorMsg = 'must be greater than or equal to 0';
/** kube's isNotPositiveErrorMsg. */
export const isNotPositiveErrorMsg = 'must be greater than zero';
/** kube's isNotIntegerErrorMsg. */
export const isNotIntegerErrorMsg = 'must be an integer';

/** The text of a quantity as sent. */
export function quantityText(value: unknown): string {
  return typeof value === 'number' ? String(value) : typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

/** The quantity in nano-units, or undefined when it does not parse. */
export function quantityNanos(value: unknown): bigint | undefined {
  return parseQuantityNanos(value);
}

/** A well-formed, non-negative quantity at path. */
export function validateNonnegativeQuantity(value: unknown, path: string): FieldError[] {
  const q = parseQuantityNanos(value);
  if (q === undefined) return [invalid(path, quantityText(value), quantityFormatError)];
  return q < 0n ? [invalid(path, quantityText(value), isNegativeErrorMsg)] : [];
}

/** A well-formed, positive quantity at path. */
export function validatePositiveQuantity(value: unknown, path: string): FieldError[] {
  const q = parseQuantityNanos(value);
  if (q === undefined) return [invalid(path, quantityText(value), quantityFormatError)];
  return q <= 0n ? [invalid(path, quantityText(value), isNotPositiveErrorMsg)] : [];
}

/** helper.IsIntegerResourceName: the object counts and extended resources kube requires to be whole. */
const integerResources = new Set([
  'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers',
]);

function mustBeInteger(resource: string): boolean {
  if (integerResources.has(resource)) return true;
  // IsExtendedResourceName: a fully qualified name outside kubernetes.io, not a quota "requests." prefix.
  const slash = resource.indexOf('/');
  if (slash < 0) return false;
  const domain = resource.slice(0, slash);
  return !domain.endsWith('kubernetes.io') && !resource.startsWith('requests.') && domain !== 'count';
}

/** ValidateResourceQuantityValue: non-negative, and whole where the resource counts things. */
export function validateResourceQuantityValue(resource: string, value: unknown, path: string): FieldError[] {
  const errs = validateNonnegativeQuantity(value, path);
  if (errs.length > 0) return errs;
  const q = parseQuantityNanos(value) ?? 0n;
  if (mustBeInteger(resource) && q % 1_000_000_000n !== 0n) errs.push(invalid(path, quantityText(value), isNotIntegerErrorMsg));
  return errs;
}

/** Each entry of a resource list (map of name to quantity) validated with ValidateResourceQuantityValue. */
export function validateResourceList(list: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const map = asObject(list);
  for (const name of Object.keys(map ?? {}).sort()) errs.push(...validateResourceQuantityValue(name, map?.[name], keyPath(path, name)));
  return errs;
}
