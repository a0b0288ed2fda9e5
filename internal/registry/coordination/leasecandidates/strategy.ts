/**
 * LeaseCandidate rules (kube's pkg/registry/coordination/leasecandidate): a lease name, binary and
 * emulation versions that are semantic versions with binary >= emulation, and a known
 * coordinated-lease strategy; selectable by spec.leaseName.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { invalid, notSupported, required, type FieldError } from '../../../validation/field-error.js';
import type { SelectableFields } from '../../generic/strategy.js';
import { asObject, stringAt } from '../../core/shared/json-value.js';
import { defineStrategy } from '../../shared/strategy-factory.js';

const semver = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const strategies = ['OldestEmulationVersion'];

/** The field selectors coordination.k8s.io offers for LeaseCandidate. */
export const leaseCandidateFields: SelectableFields = {
  extra: ['spec.leaseName'],
  style: 'core',
  values: (obj) => ({ 'spec.leaseName': stringAt(asObject(obj.spec), 'leaseName') }),
};

function compareCore(a: string, b: string): number {
  const pa = (semver.exec(a) ?? []).slice(1, 4).map(Number);
  const pb = (semver.exec(b) ?? []).slice(1, 4).map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** ValidateLeaseCandidateSpec. Never mutates. */
export function validateLeaseCandidate(obj: KubeObject): FieldError[] {
  const spec = asObject(obj.spec);
  const errs: FieldError[] = [];
  if (!stringAt(spec, 'leaseName')) errs.push(required('spec.leaseName', ''));
  const ev = stringAt(spec, 'emulationVersion');
  const bv = stringAt(spec, 'binaryVersion');
  if (ev && !semver.test(ev)) errs.push(invalid('spec.emulationVersion', ev, 'must be a valid semantic version'));
  if (!bv) errs.push(required('spec.binaryVersion', ''));
  else if (!semver.test(bv)) errs.push(invalid('spec.binaryVersion', bv, 'must be a valid semantic version'));
  if (bv && ev && semver.test(bv) && semver.test(ev) && compareCore(bv, ev) < 0) {
    errs.push(invalid('spec.binaryVersion', bv, 'must be greater than or equal to `emulationVersion`'));
  }
  const strategy = stringAt(spec, 'strategy');
  if (!strategy) errs.push(required('spec.strategy', ''));
  else if (!strategies.includes(strategy) && !strategy.includes('/')) errs.push(notSupported('spec.strategy', strategy, strategies));
  return errs;
}

/** The LeaseCandidate strategy. */
export const leaseCandidateStrategy = defineStrategy({
  namespaced: true,
  // As for Leases: candidates may be created by PUT, and every update names the version it read.
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  selectableFields: leaseCandidateFields,
  validate: validateLeaseCandidate,
});
