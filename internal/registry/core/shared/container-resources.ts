/**
 * Container resource requirements (kube's validateResourceRequirements with
 * validateContainerResourceName): resource names a container may use, quantities that parse as
 * kube parses them (internal/validation/quantity.ts, its error text at the quantity's own path),
 * non-negative and whole where kube wants integers, requests within limits for overcommittable
 * resources and equal to them otherwise, and hugepages only beside cpu or memory.
 */
import { childPath, forbidden, invalid, keyPath, required, type FieldError } from '../../../validation/field-error.js';
import { isQualifiedName } from '../../../validation/label-values.js';
import { quantityErrorOf, quantityFromJSON, type Quantity } from '../../../validation/quantity.js';
import { objectAt, type JsonObject } from './json-value.js';

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);
const standardResources = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu',
  'limits.memory', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets',
  'persistentvolumeclaims', 'configmaps', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);
const integerResources = new Set([
  'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers',
]);
const qosComputeResources = new Set(['cpu', 'memory']);

const isHugePage = (name: string): boolean => name.startsWith('hugepages-');
/** IsNativeResource: no domain, or a kubernetes.io/ one. */
const isNative = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');
/** IsExtendedResourceName: a fully qualified, non-native name that also works as a quota name. */
const isExtended = (name: string): boolean =>
  !isNative(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;
/** IsOvercommitAllowed: native resources other than hugepages. */
export const isOvercommitAllowed = (name: string): boolean => isNative(name) && !isHugePage(name);
const isStandardResource = (name: string): boolean =>
  standardResources.has(name) || isHugePage(name) || /^(requests|limits)\.hugepages-/.test(name);

/** validateContainerResourceName: a standard container resource, a kubernetes.io name, or an extended resource. */
function validateContainerResourceName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(path, name, m));
  if (errs.length === 0 && !name.includes('/') && !isStandardResource(name)) {
    errs.push(invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  if (!name.includes('/')) {
    if (!standardContainerResources.has(name) && !isHugePage(name)) errs.push(invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNative(name) && !isExtended(name)) {
    errs.push(invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** ValidateResourceQuantityValue: non-negative, and whole for integer resources. */
export function validateResourceQuantityValue(name: string, q: Quantity, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (q.sign() < 0) errs.push(invalid(path, q.toString(), 'must be greater than or equal to 0'));
  if ((integerResources.has(name) || isExtended(name)) && q.milliValue() % 1000n !== 0n) errs.push(invalid(path, q.toString(), 'must be an integer'));
  return errs;
}

/** The list's quantities by name (sorted, for stable errors), with parse failures reported at their paths. */
function parseList(list: JsonObject | undefined, path: string, errs: FieldError[]): Map<string, Quantity> {
  const parsed = new Map<string, Quantity>();
  for (const name of Object.keys(list ?? {}).sort()) {
    const raw = list?.[name];
    const p = keyPath(path, name);
    errs.push(...validateContainerResourceName(name, p));
    const parseError = quantityErrorOf(raw);
    if (parseError !== undefined) {
      errs.push(invalid(p, raw ?? null, parseError));
      continue;
    }
    const q = quantityFromJSON(raw);
    parsed.set(name, q);
    errs.push(...validateResourceQuantityValue(name, q, p));
  }
  return parsed;
}

/** Validates resources (a container's `resources`, or a pod's overhead as limits) at path. Never mutates. */
export function validateResourceRequirements(resources: JsonObject | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const limPath = childPath(path, 'limits');
  const reqPath = childPath(path, 'requests');
  const limits = parseList(objectAt(resources, 'limits'), limPath, errs);
  const requests = parseList(objectAt(resources, 'requests'), reqPath, errs);
  for (const [name, q] of requests) {
    const limit = limits.get(name);
    if (limit !== undefined) {
      if (q.cmp(limit) !== 0 && !isOvercommitAllowed(name)) {
        errs.push(invalid(reqPath, q.toString(), `must be equal to ${name} limit of ${limit.toString()}`));
      } else if (q.cmp(limit) > 0) {
        errs.push(invalid(reqPath, q.toString(), `must be less than or equal to ${name} limit of ${limit.toString()}`));
      }
    } else if (!isOvercommitAllowed(name) && !objectAt(resources, 'limits')?.[name]) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
  }
  const names = [...limits.keys(), ...requests.keys()];
  if (names.some(isHugePage) && !names.some((n) => qosComputeResources.has(n))) errs.push(forbidden(path, 'HugePages require cpu or memory'));
  return errs;
}
