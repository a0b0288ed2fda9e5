/**
 * ResourceSlice rules (kube's pkg/registry/resource/resourceslice): a driver name, a pool with a
 * name and a positive slice count, exactly one of nodeName, nodeSelector, allNodes and
 * perDeviceNodeSelection, uniquely named devices; generation tracking; selectable by
 * spec.nodeName and spec.driver.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { duplicate, indexPath, invalid, required, type FieldError } from '../../../validation/field-error.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../validation/label-values.js';
import type { SelectableFields } from '../../generic/strategy.js';
import { arrayAt, asObject, numberAt, objectAt, stringAt } from '../../core/shared/json-value.js';
import { defineStrategy } from '../../shared/strategy-factory.js';

/** resource.k8s.io's field selectors for ResourceSlice. */
export const resourceSliceFields: SelectableFields = {
  extra: ['spec.nodeName', 'spec.driver'],
  style: 'core',
  values: (obj) => {
    const spec = asObject(obj.spec);
    return { 'spec.nodeName': stringAt(spec, 'nodeName'), 'spec.driver': stringAt(spec, 'driver') };
  },
};

/** ValidateResourceSlice (the light part) without metadata. Never mutates. */
export function validateResourceSlice(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs: FieldError[] = [];
  const driver = stringAt(spec, 'driver');
  if (!driver) errs.push(required('spec.driver', ''));
  else errs.push(...isDNS1123Subdomain(driver).map((m) => invalid('spec.driver', driver, m)));
  const pool = objectAt(spec, 'pool');
  if (!stringAt(pool, 'name')) errs.push(required('spec.pool.name', ''));
  const count = numberAt(pool, 'resourceSliceCount') ?? 0;
  if (count <= 0) errs.push(invalid('spec.pool.resourceSliceCount', count, 'must be greater than zero'));
  const selectors = [
    stringAt(spec, 'nodeName') ? 'nodeName' : undefined,
    objectAt(spec, 'nodeSelector') ? 'nodeSelector' : undefined,
    spec?.allNodes === true ? 'allNodes' : undefined,
    spec?.perDeviceNodeSelection === true ? 'perDeviceNodeSelection' : undefined,
  ].filter((s) => s !== undefined);
  if (selectors.length === 0) errs.push(required('spec', 'exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required'));
  else if (selectors.length > 1) errs.push(invalid('spec', `{${selectors.join(', ')}}`, 'exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set'));
  const names = new Set<string>();
  arrayAt(spec, 'devices').forEach((raw, i) => {
    const name = stringAt(asObject(raw), 'name');
    const p = `${indexPath('spec.devices', i)}.name`;
    if (!name) errs.push(required(p, ''));
    else errs.push(...isDNS1123Label(name).map((m) => invalid(p, name, m)));
    if (name && names.has(name)) errs.push(duplicate(p, name));
    names.add(name);
  });
  return errs;
}

/** The ResourceSlice strategy. */
export const resourceSliceStrategy = defineStrategy({
  namespaced: false,
  tracksGeneration: true,
  selectableFields: resourceSliceFields,
  validate: validateResourceSlice,
});
