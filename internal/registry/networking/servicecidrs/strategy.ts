/**
 * ServiceCIDR rules (kube's pkg/registry/networking/servicecidr): one or two CIDRs (one per IP
 * family) that never change, and a status written only through servicecidrs/status.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { indexPath, invalid, required, tooMany, type FieldError } from '../../../validation/field-error.js';
import type { StatusStrategy } from '../../generic/strategy.js';
import { validateImmutableField } from '../../core/shared/field-immutable.js';
import { arrayAt, asObject } from '../../core/shared/json-value.js';
import { ipFamily, validateCIDR } from '../../core/shared/ip.js';
import { takeAllButStatusFrom } from '../../core/shared/status-write.js';
import { defineStrategy } from '../../shared/strategy-factory.js';

/** ValidateServiceCIDR without metadata. Never mutates. */
export function validateServiceCIDR(obj: KubeObject): FieldError[] {
  const cidrs = arrayAt(asObject(obj.spec), 'cidrs');
  if (cidrs.length === 0) return [required('spec.cidrs', 'at least one CIDR required')];
  if (cidrs.length > 2) return [tooMany('spec.cidrs', cidrs.length, 2)];
  const errs: FieldError[] = [];
  cidrs.forEach((c, i) => errs.push(...validateCIDR(indexPath('spec.cidrs', i), String(c))));
  if (errs.length === 0 && cidrs.length === 2 && ipFamily(String(cidrs[0]), true) === ipFamily(String(cidrs[1]), true)) {
    errs.push(invalid('spec.cidrs', cidrs, 'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64'));
  }
  return errs;
}

/** The ServiceCIDR strategy. */
export const serviceCIDRStrategy = defineStrategy({
  namespaced: false,
  hasStatus: true,
  validate: validateServiceCIDR,
  validateUpdate: (obj, old) => [...validateServiceCIDR(obj), ...validateImmutableField(asObject(obj.spec)?.cidrs, asObject(old.spec)?.cidrs, 'spec.cidrs')],
});

/** servicecidrs/status: only status changes. */
export const serviceCIDRStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate() {
    return [];
  },
};
