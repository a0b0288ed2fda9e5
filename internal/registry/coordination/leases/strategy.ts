/**
 * Lease rules (kube's pkg/registry/coordination/lease): durations positive, transitions
 * non-negative, and the coordinated-leader-election fields (strategy, preferredHolder) dropped,
 * since that feature is off by default in 1.33. An update must name the resourceVersion it read:
 * leader election depends on it.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, type FieldError } from '../../../validation/field-error.js';
import type { Strategy } from '../../generic/strategy.js';
import { asObject, numberAt } from '../../core/shared/json-value.js';

/** kube's handling of the off CoordinatedLeaderElection gate: each field survives only if old had it. Mutates obj. */
export function dropDisabledLeaseFields(obj: KubeObject, old: KubeObject | undefined): void {
  const spec = asObject(obj.spec);
  if (!spec) return;
  const oldSpec = asObject(old?.spec);
  for (const field of ['strategy', 'preferredHolder']) {
    if (oldSpec?.[field] === undefined || oldSpec[field] === null) delete spec[field];
  }
}

/** ValidateLeaseSpec. */
export function validateLease(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs: FieldError[] = [];
  const duration = numberAt(spec, 'leaseDurationSeconds');
  if (duration !== undefined && duration <= 0) errs.push(invalid('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
  const transitions = numberAt(spec, 'leaseTransitions');
  if (transitions !== undefined && transitions < 0) errs.push(invalid('spec.leaseTransitions', transitions, 'must be greater than or equal to 0'));
  return errs;
}

/** The Lease strategy. */
export const leaseStrategy = {
  namespaced: true,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  tracksGeneration: false,
  hasStatus: false,
  nameValidation: 'subdomain',
  selectableFields: { extra: [], style: 'meta' },
  prepareForCreate(_ctx, obj) {
    dropDisabledLeaseFields(obj, undefined);
  },
  validate(_ctx, obj) {
    return validateLease(obj);
  },
  prepareForUpdate(_ctx, obj, old) {
    dropDisabledLeaseFields(obj, old);
  },
  validateUpdate(_ctx, obj, _old) {
    return validateLease(obj);
  },
} satisfies Strategy;
