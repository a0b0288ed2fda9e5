/**
 * The mutatingadmissionpolicybindings resource of admissionregistration.k8s.io,
 * served in v1alpha1, under /mutatingadmissionpolicybindings/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultMutatingAdmissionPolicyBinding, mutatingAdmissionPolicyBindingStrategy } from './strategy.js';

/** Builds the admissionregistration.k8s.io mutatingadmissionpolicybindings registrations. */
export const mutatingAdmissionPolicyBindingsModule = defineResourceModule({
  group: 'admissionregistration.k8s.io',
  resource: 'mutatingadmissionpolicybindings',
  kind: 'MutatingAdmissionPolicyBinding',
  keyPrefix: '/mutatingadmissionpolicybindings',
  storageVersion: 'v1alpha1',
  strategy: mutatingAdmissionPolicyBindingStrategy,
  versions: [{ version: 'v1alpha1', defaulter: defaultMutatingAdmissionPolicyBinding }],
});
