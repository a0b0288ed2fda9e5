/**
 * The validatingadmissionpolicies resource of admissionregistration.k8s.io,
 * served in v1 and v1beta1 (the same schema, stored as v1), under /validatingadmissionpolicies/<name>.
 */
import { identityConversion } from '../../shared/conversion.js';
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultValidatingAdmissionPolicy, validatingAdmissionPolicyStrategy, validatingAdmissionPolicyStatusStrategy } from './strategy.js';

/** Builds the admissionregistration.k8s.io validatingadmissionpolicies registrations. */
export const validatingAdmissionPoliciesModule = defineResourceModule({
  group: 'admissionregistration.k8s.io',
  resource: 'validatingadmissionpolicies',
  kind: 'ValidatingAdmissionPolicy',
  keyPrefix: '/validatingadmissionpolicies',
  storageVersion: 'v1',
  strategy: validatingAdmissionPolicyStrategy,
  versions: [{ version: 'v1', defaulter: defaultValidatingAdmissionPolicy }, { version: 'v1beta1', defaulter: defaultValidatingAdmissionPolicy, conversion: identityConversion }],
  status: validatingAdmissionPolicyStatusStrategy,
});
