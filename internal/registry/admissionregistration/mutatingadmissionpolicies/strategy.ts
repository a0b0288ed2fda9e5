/**
 * MutatingAdmissionPolicy rules (kube's pkg/registry/admissionregistration/mutatingadmissionpolicy): a failure policy, match constraints and mutations;
 * generation tracking.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { defaultAdmissionPolicy } from '../shared/defaults.js';
import { validateAdmissionPolicy } from '../shared/validation.js';

/** The MutatingAdmissionPolicy strategy. */
export const mutatingAdmissionPolicyStrategy = defineStrategy({
  namespaced: false,
  tracksGeneration: true,
  validate: (obj) => validateAdmissionPolicy(obj, true),
});

/** admissionregistration.k8s.io/v1alpha1 defaulting of a MutatingAdmissionPolicy. Mutates obj. */
export function defaultMutatingAdmissionPolicy(obj: KubeObject): void {
  defaultAdmissionPolicy(obj);
}
