/**
 * The mutatingadmissionpolicies resource of admissionregistration.k8s.io,
 * served in v1alpha1, under /mutatingadmissionpolicies/<name>.
 */
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultMutatingAdmissionPolicy, mutatingAdmissionPolicyStrategy } from './strategy.js';

/** Builds the admissionregistration.k8s.io mutatingadmissionpolicies registrations. */
export const mutatingAdmissionPoliciesModule = defineResourceModule({
  group: 'admissionregistration.k8s.io',
  resource: 'mutatingadmissionpolicies',
  kind: 'MutatingAdmissionPolicy',
  keyPrefix: '/mutatingadmissionpolicies',
  storageVersion: 'v1alpha1',
  strategy: mutatingAdmissionPolicyStrategy,
  versions: [{ version: 'v1alpha1', defaulter: defaultMutatingAdmissionPolicy }],
});
