/**
 * MutatingAdmissionPolicyBinding rules (kube's pkg/registry/admissionregistration/mutatingadmissionpolicybinding): a policy name, a parameter reference;
 * generation tracking.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { defaultPolicyBinding } from '../shared/defaults.js';
import { validatePolicyBinding } from '../shared/validation.js';

/** The MutatingAdmissionPolicyBinding strategy. */
export const mutatingAdmissionPolicyBindingStrategy = defineStrategy({
  namespaced: false,
  tracksGeneration: true,
  validate: (obj) => validatePolicyBinding(obj, true),
});

/** admissionregistration.k8s.io/v1alpha1 defaulting of a MutatingAdmissionPolicyBinding. Mutates obj. */
export function defaultMutatingAdmissionPolicyBinding(obj: KubeObject): void {
  defaultPolicyBinding(obj);
}
