/**
 * Checks shared by the storage.k8s.io resources: CSI driver names (kube's ValidateCSIDriverName)
 * and provisioner parameters (keys present, at most 512 of them and 256 KiB in all).
 */
import { forbidden, invalid, required, tooLong, tooMany, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Subdomain, isQualifiedName, utf8Length } from '../../../validation/label-values.js';
import { asObject } from '../../core/shared/json-value.js';
import { semanticEqual } from '../../core/shared/semantic-equal.js';

const maxProvisionerParameterSize = 256 * 1024;
const maxProvisionerParameterLen = 512;

/** ValidateCSIDriverName at path. */
export function validateCSIDriverName(name: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (name.length === 0) errs.push(required(path, ''));
  if (name.length > 63) errs.push(tooLong(path, 63));
  for (const m of isDNS1123Subdomain(name.toLowerCase())) errs.push(invalid(path, name, m));
  return errs;
}

/** validateProvisioner: required, and a qualified name once lowercased. */
export function validateProvisioner(provisioner: string, path: string): FieldError[] {
  if (provisioner.length === 0) return [required(path, '')];
  return isQualifiedName(provisioner.toLowerCase()).map((m) => invalid(path, provisioner, m));
}

/** validateParameters. */
export function validateParameters(params: unknown, allowEmpty: boolean, path: string): FieldError[] {
  const map = asObject(params) ?? {};
  const keys = Object.keys(map);
  if (keys.length > maxProvisionerParameterLen) return [tooMany(path, keys.length, maxProvisionerParameterLen)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const k of keys) {
    if (k.length < 1) errs.push(invalid(path, k, 'field can not be empty.'));
    size += utf8Length(k) + utf8Length(String(map[k] ?? ''));
  }
  if (size > maxProvisionerParameterSize) errs.push(tooLong(path, maxProvisionerParameterSize));
  if (!allowEmpty && keys.length === 0) errs.push(required(path, 'must contain at least one key/value pair'));
  return errs;
}

/** A field whose update kube refuses with "updates to <field> are forbidden.". */
export function forbidUpdate(next: unknown, prev: unknown, path: string): FieldError[] {
  return semanticEqual(next, prev) ? [] : [forbidden(path, `updates to ${path} are forbidden.`)];
}
