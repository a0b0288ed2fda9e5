/**
 * IPAddress rules (kube's pkg/registry/networking/ipaddress): the name is an IP address in
 * canonical form, spec.parentRef names a resource and object and never changes.
 */
import { isIP } from 'node:net';
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../validation/label-values.js';
import { validateImmutableField } from '../../core/shared/field-immutable.js';
import { asObject, objectAt, stringAt } from '../../core/shared/json-value.js';
import { canonicalIP } from '../../core/services/ip-allocator.js';
import { defineStrategy } from '../../shared/strategy-factory.js';

/** ValidateIPAddressName: netip.ParseAddr's error, or the canonical-form rule. */
export function ipAddressNameErrors(name: string): string[] {
  if (isIP(name) === 0) return [`ParseAddr(${JSON.stringify(name)}): unable to parse IP`];
  return canonicalIP(name) === name ? [] : ['must be a canonical format IP address'];
}

/** ValidateIPAddress without the generic metadata. Never mutates. */
export function validateIPAddress(obj: KubeObject): FieldError[] {
  const name = obj.metadata.name ?? '';
  const errs = name ? ipAddressNameErrors(name).map((m) => invalid('metadata.name', name, m)) : [];
  const ref = objectAt(asObject(obj.spec), 'parentRef');
  if (!ref) return [...errs, required('spec.parentRef', '')];
  const group = stringAt(ref, 'group');
  if (group) errs.push(...isDNS1123Subdomain(group).map((m) => invalid('spec.parentRef.group', group, m)));
  const resource = stringAt(ref, 'resource');
  if (!resource) errs.push(required('spec.parentRef.resource', ''));
  const refName = stringAt(ref, 'name');
  if (!refName) errs.push(required('spec.parentRef.name', ''));
  const ns = stringAt(ref, 'namespace');
  if (ns) errs.push(...isDNS1123Label(ns).map((m) => invalid('spec.parentRef.namespace', ns, m)));
  return errs;
}

/** The IPAddress strategy: names are checked as addresses, beyond the generic path-segment rule. */
export const ipAddressStrategy = defineStrategy({
  namespaced: false,
  nameValidation: 'path-segment',
  validate: validateIPAddress,
  validateUpdate: (obj, old) => [
    ...validateIPAddress(obj),
    ...validateImmutableField(objectAt(asObject(obj.spec), 'parentRef'), objectAt(asObject(old.spec), 'parentRef'), 'spec.parentRef'),
  ],
});
