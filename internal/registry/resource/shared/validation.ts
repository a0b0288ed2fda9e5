/**
 * resource.k8s.io validation on the stored v1beta1 form (kube's pkg/apis/resource/validation, the
 * light part): device requests with unique DNS-label names naming a class or sub-requests,
 * allocation modes, selectors with a CEL expression, opaque configurations with a driver, and
 * tolerations with known operators and effects.
 */
import type { FieldError } from '../../../validation/field-error.js';
import { childPath, duplicate, forbidden, indexPath, invalid, notSupported, required } from '../../../validation/field-error.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../validation/label-values.js';
import { arrayAt, asObject, numberAt, objectAt, stringAt, type JsonObject } from '../../core/shared/json-value.js';

const allocationModes = ['All', 'ExactCount'];
const tolerationOperators = ['Equal', 'Exists'];
const taintEffects = ['NoExecute', 'NoSchedule'];

/** Selectors at path: each has a CEL expression. */
export function validateSelectors(selectors: unknown[], path: string): FieldError[] {
  return selectors.flatMap((s, i) => {
    const cel = objectAt(asObject(s), 'cel');
    return stringAt(cel, 'expression') ? [] : [required(childPath(indexPath(path, i), 'cel', 'expression'), '')];
  });
}

/** Opaque configurations at path: each names a driver. */
export function validateConfigs(configs: unknown[], path: string): FieldError[] {
  return configs.flatMap((c, i) => {
    const opaque = objectAt(asObject(c), 'opaque');
    if (!opaque) return [required(indexPath(path, i), 'exactly one of `opaque` is required')];
    const driver = stringAt(opaque, 'driver');
    if (!driver) return [required(childPath(indexPath(path, i), 'opaque', 'driver'), '')];
    return isDNS1123Subdomain(driver).map((m) => invalid(childPath(indexPath(path, i), 'opaque', 'driver'), driver, m));
  });
}

function validateTolerations(tolerations: unknown[], path: string): FieldError[] {
  return tolerations.flatMap((t, i) => {
    const tol = asObject(t) ?? {};
    const p = indexPath(path, i);
    const errs: FieldError[] = [];
    const op = stringAt(tol, 'operator');
    if (op && !tolerationOperators.includes(op)) errs.push(notSupported(childPath(p, 'operator'), op, tolerationOperators));
    const effect = stringAt(tol, 'effect');
    if (effect && !taintEffects.includes(effect)) errs.push(notSupported(childPath(p, 'effect'), effect, taintEffects));
    return errs;
  });
}

function validateExact(r: JsonObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const cls = stringAt(r, 'deviceClassName');
  if (!cls) errs.push(required(childPath(path, 'deviceClassName'), ''));
  else errs.push(...isDNS1123Subdomain(cls).map((m) => invalid(childPath(path, 'deviceClassName'), cls, m)));
  const mode = stringAt(r, 'allocationMode');
  if (mode === 'ExactCount') {
    const count = numberAt(r, 'count') ?? 0;
    if (count <= 0) errs.push(invalid(childPath(path, 'count'), count, 'must be greater than zero'));
  } else if (mode === 'All') {
    if ((numberAt(r, 'count') ?? 0) !== 0) errs.push(invalid(childPath(path, 'count'), r.count, 'must not be specified when allocationMode is All'));
  } else {
    errs.push(notSupported(childPath(path, 'allocationMode'), mode, allocationModes));
  }
  errs.push(...validateSelectors(arrayAt(r, 'selectors'), childPath(path, 'selectors')));
  errs.push(...validateTolerations(arrayAt(r, 'tolerations'), childPath(path, 'tolerations')));
  return errs;
}

/** A v1beta1 DeviceClaim (spec.devices of a claim) at path. Never mutates. */
export function validateDeviceClaim(devices: JsonObject | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  arrayAt(devices, 'requests').forEach((raw, i) => {
    const r = asObject(raw) ?? {};
    const p = indexPath(childPath(path, 'requests'), i);
    const name = stringAt(r, 'name');
    if (!name) errs.push(required(childPath(p, 'name'), ''));
    else errs.push(...isDNS1123Label(name).map((m) => invalid(childPath(p, 'name'), name, m)));
    if (name && names.has(name)) errs.push(duplicate(childPath(p, 'name'), name));
    names.add(name);
    const subs = arrayAt(r, 'firstAvailable');
    if (subs.length > 0) {
      if (stringAt(r, 'deviceClassName')) errs.push(forbidden(childPath(p, 'deviceClassName'), 'must not be specified when firstAvailable is set'));
      subs.forEach((s, j) => {
        const sp = indexPath(childPath(p, 'firstAvailable'), j);
        const sub = asObject(s) ?? {};
        const subName = stringAt(sub, 'name');
        if (!subName) errs.push(required(childPath(sp, 'name'), ''));
        else errs.push(...isDNS1123Label(subName).map((m) => invalid(childPath(sp, 'name'), subName, m)));
        errs.push(...validateExact(sub, sp));
      });
    } else {
      errs.push(...validateExact(r, p));
    }
  });
  errs.push(...validateConfigs(arrayAt(devices, 'config'), childPath(path, 'config')));
  return errs;
}
