/**
 * LimitRange validation (kube's ValidateLimitRange): known (or qualified) limit types used once,
 * resource names a limit of that type may name, no defaults on Pod limits, a storage bound on
 * PersistentVolumeClaim limits, and min <= defaultRequest <= default <= max with ratios >= 1.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { duplicate, forbidden, indexPath, invalid, keyPath, required, type FieldError } from '../../../validation/field-error.js';
import { isQualifiedName } from '../../../validation/label-values.js';
import { arrayAt, asObject, objectAt, stringAt, type JsonObject } from '../shared/json-value.js';
import { quantityNanos, quantityText, validateNonnegativeQuantity } from '../../shared/quantity-validation.js';

const standardLimitTypes = ['Pod', 'Container', 'PersistentVolumeClaim'];
const standardContainerResources = ['cpu', 'memory', 'ephemeral-storage'];

function validateTypeName(type: string, path: string): FieldError[] {
  const errs = isQualifiedName(type).map((m) => invalid(path, type, m));
  if (!type.includes('/') && !standardLimitTypes.includes(type)) errs.push(invalid(path, type, 'must be a standard limit type or fully qualified'));
  return errs;
}

function validateResourceName(type: string, name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(path, name, m));
  if (name.includes('/')) return errs;
  if (type === 'Pod' || type === 'Container') {
    if (!standardContainerResources.includes(name) && !name.startsWith('hugepages-')) errs.push(invalid(path, name, 'must be a standard resource for containers'));
  } else if (type === 'PersistentVolumeClaim') {
    if (name !== 'storage') errs.push(invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

type Bound = { nanos: bigint; text: string };

function collect(limit: JsonObject, key: string, type: string, path: string, into: Map<string, Bound>, keys: Set<string>, errs: FieldError[]): void {
  const map = objectAt(limit, key) ?? {};
  for (const name of Object.keys(map).sort()) {
    const p = keyPath(`${path}.${key}`, name);
    errs.push(...validateResourceName(type, name, p));
    keys.add(name);
    const bad = validateNonnegativeQuantity(map[name], p);
    errs.push(...bad);
    const nanos = quantityNanos(map[name]);
    if (nanos !== undefined) into.set(name, { nanos, text: quantityText(map[name]) });
  }
}

/** ValidateLimitRange without metadata. Never mutates. */
export function validateLimitRange(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const types = new Set<string>();
  arrayAt(asObject(obj.spec), 'limits').forEach((raw, i) => {
    const limit = asObject(raw) ?? {};
    const path = indexPath('spec.limits', i);
    const type = stringAt(limit, 'type');
    errs.push(...validateTypeName(type, `${path}.type`));
    if (types.has(type)) errs.push(duplicate(`${path}.type`, type));
    types.add(type);
    const keys = new Set<string>();
    const min = new Map<string, Bound>();
    const max = new Map<string, Bound>();
    const defaults = new Map<string, Bound>();
    const defaultRequests = new Map<string, Bound>();
    const ratios = new Map<string, Bound>();
    collect(limit, 'max', type, path, max, keys, errs);
    collect(limit, 'min', type, path, min, keys, errs);
    if (type === 'Pod') {
      if (Object.keys(objectAt(limit, 'default') ?? {}).length > 0) errs.push(forbidden(`${path}.default`, "may not be specified when `type` is 'Pod'"));
      if (Object.keys(objectAt(limit, 'defaultRequest') ?? {}).length > 0) errs.push(forbidden(`${path}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
    } else {
      collect(limit, 'default', type, path, defaults, keys, errs);
      collect(limit, 'defaultRequest', type, path, defaultRequests, keys, errs);
    }
    if (type === 'PersistentVolumeClaim' && !min.has('storage') && !max.has('storage')) {
      errs.push(required(`${path}.limits`, 'either minimum or maximum storage value is required, but neither was provided'));
    }
    collect(limit, 'maxLimitRequestRatio', type, path, ratios, keys, errs);
    for (const k of [...keys].sort()) {
      const mn = min.get(k);
      const mx = max.get(k);
      const df = defaults.get(k);
      const dr = defaultRequests.get(k);
      const ratio = ratios.get(k);
      if (mn && mx && mn.nanos > mx.nanos) errs.push(invalid(keyPath(`${path}.min`, k), mn.text, `min value ${mn.text} is greater than max value ${mx.text}`));
      if (dr && mn && mn.nanos > dr.nanos) errs.push(invalid(keyPath(`${path}.defaultRequest`, k), dr.text, `min value ${mn.text} is greater than default request value ${dr.text}`));
      if (dr && mx && dr.nanos > mx.nanos) errs.push(invalid(keyPath(`${path}.defaultRequest`, k), dr.text, `default request value ${dr.text} is greater than max value ${mx.text}`));
      if (dr && df && dr.nanos > df.nanos) errs.push(invalid(keyPath(`${path}.defaultRequest`, k), dr.text, `default request value ${dr.text} is greater than default limit value ${df.text}`));
      if (df && mn && mn.nanos > df.nanos) errs.push(invalid(keyPath(`${path}.default`, k), mn.text, `min value ${mn.text} is greater than default value ${df.text}`));
      if (df && mx && df.nanos > mx.nanos) errs.push(invalid(keyPath(`${path}.default`, k), mx.text, `default value ${df.text} is greater than max value ${mx.text}`));
      if (ratio && ratio.nanos < 1_000_000_000n) errs.push(invalid(keyPath(`${path}.maxLimitRequestRatio`, k), ratio.text, `ratio ${ratio.text} is less than 1`));
      if (ratio && mn && mx) {
        // The ratio may not exceed what min and max allow (kube compares max/min against it).
        if (mn.nanos > 0n && ratio.nanos * mn.nanos > mx.nanos * 1_000_000_000n) {
          const allowed = Number(mx.nanos) / Number(mn.nanos);
          errs.push(invalid(keyPath(`${path}.maxLimitRequestRatio`, k), ratio.text, `ratio ${ratio.text} is greater than max/min = ${allowed.toFixed(6)}`));
        }
      }
    }
  });
  return errs;
}
