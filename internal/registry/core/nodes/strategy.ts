/**
 * Node rules (kube's pkg/registry/core/node): a kubelet registers its node with status, so
 * create keeps it; main-resource updates keep the stored status; podCIDRs and providerID are set
 * once; taints are well formed; nodes/status may change status and metadata but not spec.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { validateLabelName } from '../../../selectors/label-selector-object.js';
import { duplicate, forbidden, indexPath, invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import { isValidLabelValue } from '../../../validation/label-values.js';
import type { StatusStrategy, Strategy } from '../../generic/strategy.js';
import { stableStringify } from '../../generic/object-meta.js';
import { quantityErrorOf, quantityFromJSON } from '../../../validation/quantity.js';
import { validateResourceQuantityValue } from '../shared/container-resources.js';
import { ipFamily, validateCIDR } from '../shared/ip.js';
import { arrayAt, asObject, boolText, stringAt } from '../shared/json-value.js';
import { keepStatusOf, takeAllButStatusFrom } from '../shared/status-write.js';

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const podCIDRMsg = 'node updates may not change podCIDR except from "" to valid';

/** Keeps spec.podCIDR and spec.podCIDRs in step as kube's v1 conversion does (podCIDR wins). Mutates obj. */
export function syncPodCIDRs(obj: KubeObject): void {
  const spec = asObject(obj.spec);
  if (!spec) return;
  const single = stringAt(spec, 'podCIDR');
  const list = arrayAt(spec, 'podCIDRs');
  if (single && (list.length === 0 || list[0] !== single)) spec.podCIDRs = [single];
  else if (!single && list.length > 0 && typeof list[0] === 'string') spec.podCIDR = list[0];
}

/** validateNodeTaints: keys are label names, values label values, effects known, key/effect unique. */
function validateTaints(taints: unknown[]): FieldError[] {
  // kube reports taints under metadata.taints, a long-standing quirk clients see.
  const path = 'metadata.taints';
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  taints.forEach((raw, i) => {
    const t = asObject(raw);
    const p = indexPath(path, i);
    const key = stringAt(t, 'key');
    errs.push(...validateLabelName(key, `${p}.key`));
    const value = stringAt(t, 'value');
    const valueErrs = isValidLabelValue(value);
    if (valueErrs.length > 0) errs.push(invalid(`${p}.value`, value, valueErrs.join(';')));
    const effect = stringAt(t, 'effect');
    if (!effect) errs.push(required(`${p}.effect`, ''));
    else if (!taintEffects.includes(effect)) errs.push(notSupported(`${p}.effect`, effect, taintEffects));
    const k = `${effect}\u0000${key}`;
    if (seen.has(k)) errs.push({ ...duplicate(p, t), detail: 'taints must be unique by key and effect pair' });
    seen.add(k);
  });
  return errs;
}

/** ValidateNodeResources: capacity and allocatable quantities parse and are non-negative (whole for integer resources). */
function validateNodeResources(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const list of ['capacity', 'allocatable']) {
    const entries = asObject(asObject(obj.status)?.[list]) ?? {};
    for (const name of Object.keys(entries).sort()) {
      // kube names these paths with dots, not subscripts.
      const path = `status.${list}.${name}`;
      const parseError = quantityErrorOf(entries[name]);
      if (parseError !== undefined) errs.push(invalid(path, entries[name] ?? null, parseError));
      else errs.push(...validateResourceQuantityValue(name, quantityFromJSON(entries[name]), path));
    }
  }
  return errs;
}

/** ValidateNode without metadata: taints, podCIDRs and resource quantities. */
export function validateNode(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs = validateTaints(arrayAt(spec, 'taints'));
  errs.push(...validateNodeResources(obj));
  const cidrs = arrayAt(spec, 'podCIDRs').map(String);
  cidrs.forEach((c, i) => errs.push(...validateCIDR(indexPath('spec.podCIDRs', i), c)));
  if (cidrs.length > 1 && (cidrs.length > 2 || ipFamily(cidrs[0] as string, true) === ipFamily(cidrs[1] as string, true))) {
    errs.push(invalid('spec.podCIDRs', cidrs, 'may specify no more than one CIDR for each IP family'));
  }
  return errs;
}

/** ValidateNodeUpdate without metadata: podCIDRs and providerID set once, no duplicate addresses. */
export function validateNodeUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const oldSpec = asObject(old.spec);
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  arrayAt(asObject(obj.status), 'addresses').forEach((a, i) => {
    const k = stableStringify(a);
    if (seen.has(k)) errs.push(duplicate(indexPath('status.addresses', i), a));
    seen.add(k);
  });
  const oldCIDRs = arrayAt(oldSpec, 'podCIDRs');
  const newCIDRs = arrayAt(spec, 'podCIDRs');
  if (oldCIDRs.length > 0) {
    if (oldCIDRs.length !== newCIDRs.length) errs.push(forbidden('spec.podCIDRs', podCIDRMsg));
    else {
      oldCIDRs.forEach((c, i) => {
        if (c !== newCIDRs[i]) errs.push(forbidden('spec.podCIDRs', podCIDRMsg));
      });
    }
  }
  const oldProvider = stringAt(oldSpec, 'providerID');
  if (oldProvider && oldProvider !== stringAt(spec, 'providerID')) {
    errs.push(forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  if (stringAt(spec, 'externalID') !== stringAt(oldSpec, 'externalID')) errs.push(forbidden('spec.externalID', 'may not be updated'));
  return [...errs, ...validateNode(obj)];
}

/** The Node's fields for field selectors. */
export function nodeSelectableFields(obj: KubeObject): Record<string, string> {
  return { 'spec.unschedulable': boolText(asObject(obj.spec), 'unschedulable') };
}

/** The Node strategy. */
export const nodeStrategy = {
  namespaced: false,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  hasStatus: true,
  nameValidation: 'subdomain',
  selectableFields: { extra: ['spec.unschedulable'], style: 'core', values: nodeSelectableFields },
  prepareForCreate(_ctx, obj) {
    syncPodCIDRs(obj);
  },
  validate(_ctx, obj) {
    return validateNode(obj);
  },
  prepareForUpdate(_ctx, obj, old) {
    keepStatusOf(obj, old);
    syncPodCIDRs(obj);
  },
  validateUpdate(_ctx, obj, old) {
    return validateNodeUpdate(obj, old);
  },
} satisfies Strategy;

/** nodes/status (kube's nodeStatusStrategy): spec stays as stored; status and metadata may change. */
export const nodeStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate(_ctx, obj, old) {
    return validateNodeUpdate(obj, old);
  },
};

