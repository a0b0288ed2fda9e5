/**
 * The validatingadmissionpolicybindings resource of admissionregistration.k8s.io,
 * served in v1 and v1beta1 (the same schema, stored as v1), under /validatingadmissionpolicybindings/<name>.
 */
import { identityConversion } from '../../shared/conversion.js';
import { defineResourceModule } from '../../shared/resource-module.js';
import { defaultValidatingAdmissionPolicyBinding, validatingAdmissionPolicyBindingStrategy } from './strategy.js';

/** Builds the admissionregistration.k8s.io validatingadmissionpolicybindings registrations. */
export const validatingAdmissionPolicyBindingsModule = defineResourceModule({
  group: 'admissionregistration.k8s.io',
  resource: 'validatingadmissionpolicybindings',
  kind: 'ValidatingAdmissionPolicyBinding',
  keyPrefix: '/validatingadmissionpolicybindings',
  storageVersion: 'v1',
  strategy: validatingAdmissionPolicyBindingStrategy,
  versions: [{ version: 'v1', defaulter: defaultValidatingAdmissionPolicyBinding }, { version: 'v1beta1', defaulter: defaultValidatingAdmissionPolicyBinding, conversion: identityConversion }],
});
