/**
 * Service rules (kube's pkg/registry/core/service): status starts with an empty load balancer,
 * clusterIP and clusterIPs are kept in step, an update that leaves out allocated values keeps
 * them, a cluster IP never changes once set, and status is written only through services/status.
 * Cluster IP and node port allocation belong to the service IP allocator, not to this strategy.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { RequestContext } from '../../../request/context.js';
import type { FieldError } from '../../../validation/field-error.js';
import { initIPFamilyFields, type ClusterIPFamilies } from './ip-families.js';
import type { StatusStrategy, Strategy } from '../../generic/strategy.js';
import { asObject, ensureObject, stringAt } from '../shared/json-value.js';
import { dropTypeDependentFields, normalizeClusterIPs, patchAllocatedValues } from '../shared/service-spec.js';
import { validateService, validateServiceUpdate } from '../shared/service-validation.js';
import { takeAllButStatusFrom } from '../shared/status-write.js';


/** The Service's fields for field selectors. */
export function serviceSelectableFields(obj: KubeObject): Record<string, string> {
  const spec = asObject(obj.spec);
  return { 'spec.clusterIP': stringAt(spec, 'clusterIP'), 'spec.type': stringAt(spec, 'type') };
}

/** A single-stack IPv4 cluster: the families of --service-cluster-ip-range's default. */
const ipv4Only: ClusterIPFamilies = { configured: new Set(['IPv4']), defaultFamily: 'IPv4' };

/**
 * The Service strategy for a cluster with the given service IP families. Preparing a Service
 * settles its ipFamilyPolicy and ipFamilies (kube does it in BeginCreate/BeginUpdate, before
 * validation); what that refuses is all validation reports, as kube stops there.
 */
export function serviceStrategyFor(families: ClusterIPFamilies) {
  const familyErrors = new WeakMap<KubeObject, FieldError[]>();
  return {
    ...serviceStrategyBase,
    prepareForCreate(ctx: RequestContext, obj: KubeObject) {
      serviceStrategyBase.prepareForCreate(ctx, obj);
      familyErrors.set(obj, initIPFamilyFields(ensureObject(obj, 'spec'), undefined, families));
    },
    validate(ctx: RequestContext, obj: KubeObject) {
      const errs = familyErrors.get(obj) ?? [];
      return errs.length > 0 ? errs : serviceStrategyBase.validate(ctx, obj);
    },
    prepareForUpdate(ctx: RequestContext, obj: KubeObject, old: KubeObject) {
      serviceStrategyBase.prepareForUpdate(ctx, obj, old);
      familyErrors.set(obj, initIPFamilyFields(ensureObject(obj, 'spec'), asObject(old.spec) ?? {}, families));
    },
    validateUpdate(ctx: RequestContext, obj: KubeObject, old: KubeObject) {
      const errs = familyErrors.get(obj) ?? [];
      return errs.length > 0 ? errs : serviceStrategyBase.validateUpdate(ctx, obj, old);
    },
  } satisfies Strategy;
}

const serviceStrategyBase = {
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  tracksGeneration: false,
  hasStatus: true,
  nameValidation: 'dns1035-label',
  returnDeletedObject: true,
  selectableFields: { extra: ['spec.clusterIP', 'spec.type'], style: 'core', values: serviceSelectableFields },
  prepareForCreate(_ctx, obj) {
    obj.status = { loadBalancer: {} };
    normalizeClusterIPs(ensureObject(obj, 'spec'), undefined);
  },
  validate(_ctx, obj) {
    return validateService(obj);
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

/** The Service strategy of a single-stack IPv4 cluster. */
export const serviceStrategy = serviceStrategyFor(ipv4Only);

/** services/status (kube's serviceStatusStrategy): spec stays as stored; metadata may change. */
export const serviceStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate(_ctx, _obj, _old) {
    return [];
  },
};
