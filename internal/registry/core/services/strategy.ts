/**
 * Service rules (kube's pkg/registry/core/service): status starts with an empty load balancer,
 * clusterIP and clusterIPs are kept in step, an update that leaves out allocated values keeps
 * them, a cluster IP never changes once set, and status is written only through services/status.
 * Cluster IP and node port allocation belong to the service IP allocator, not to this strategy.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, type FieldError } from '../../../validation/field-error.js';
import { isDNS1035Label } from '../../../validation/label-values.js';
import type { StatusStrategy, Strategy } from '../../generic/strategy.js';
import { asObject, ensureObject, stringAt } from '../shared/json-value.js';
import { dropTypeDependentFields, normalizeClusterIPs, patchAllocatedValues } from '../shared/service-spec.js';
import { validateService, validateServiceUpdate } from '../shared/service-validation.js';
import { takeAllButStatusFrom } from '../shared/status-write.js';

/**
 * Service names are DNS-1035 labels (kube's ValidateServiceName). The generic layer only knows
 * DNS-1123 rules, so the strategy declares path-segment names there (refused only for `/`, `%`,
 * `.` and `..`, which DNS-1035 refuses too) and checks DNS-1035 itself, as kube's
 * ValidateObjectMeta with NameIsDNS1035Label would; generateName may end in a dash.
 */
export function validateServiceName(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const { name, generateName } = obj.metadata;
  const safePath = (v: string): boolean => v !== '.' && v !== '..' && !v.includes('/') && !v.includes('%');
  if (generateName && safePath(generateName)) {
    const masked = generateName.length > 1 && generateName.endsWith('-') ? `${generateName.slice(0, -1)}a` : generateName;
    for (const m of isDNS1035Label(masked)) errs.push(invalid('metadata.generateName', generateName, m));
  }
  if (name && safePath(name)) for (const m of isDNS1035Label(name)) errs.push(invalid('metadata.name', name, m));
  return errs;
}

/** The Service's fields for field selectors. */
export function serviceSelectableFields(obj: KubeObject): Record<string, string> {
  const spec = asObject(obj.spec);
  return { 'spec.clusterIP': stringAt(spec, 'clusterIP'), 'spec.type': stringAt(spec, 'type') };
}

/** The Service strategy. */
export const serviceStrategy = {
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  hasStatus: true,
  nameValidation: 'path-segment',
  returnDeletedObject: true,
  selectableFields: { extra: ['spec.clusterIP', 'spec.type'], style: 'core', values: serviceSelectableFields },
  prepareForCreate(_ctx, obj) {
    obj.status = { loadBalancer: {} };
    normalizeClusterIPs(ensureObject(obj, 'spec'), undefined);
  },
  validate(_ctx, obj) {
    return [...validateServiceName(obj), ...validateService(obj)];
  },
  prepareForUpdate(_ctx, obj, old) {
    obj.status = structuredClone(old.status ?? { loadBalancer: {} });
    const spec = ensureObject(obj, 'spec');
    const oldSpec = asObject(old.spec) ?? {};
    patchAllocatedValues(spec, oldSpec);
    normalizeClusterIPs(spec, oldSpec);
    dropTypeDependentFields(obj, spec, oldSpec);
  },
  validateUpdate(_ctx, obj, old) {
    return [...validateServiceUpdate(obj, old), ...validateService(obj)];
  },
} satisfies Strategy;

/** services/status (kube's serviceStatusStrategy): spec stays as stored; metadata may change. */
export const serviceStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate(_ctx, _obj, _old) {
    return [];
  },
};
