/**
 * ValidatingAdmissionPolicyBinding rules (kube's pkg/registry/admissionregistration/validatingadmissionpolicybinding): a policy name, a parameter reference and validation actions;
 * generation tracking.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { defaultPolicyBinding } from '../shared/defaults.js';
import { validatePolicyBinding } from '../shared/validation.js';

/** The ValidatingAdmissionPolicyBinding strategy. */
export const validatingAdmissionPolicyBindingStrategy = defineStrategy({
  namespaced: false,
  tracksGeneration: true,
  validate: (obj) => validatePolicyBinding(obj, false),
});

/** admissionregistration.k8s.io/v1 defaulting of a ValidatingAdmissionPolicyBinding. Mutates obj. */
export function defaultValidatingAdmissionPolicyBinding(obj: KubeObject): void {
  defaultPolicyBinding(obj);
}
