/** Admission plugin factories of this family, by kube's plugin name (see ../registry.ts). */
import type { AdmissionPluginFactories } from '../deps.js';
import { MutatingAdmissionPolicyPlugin } from '../mutating-admission-policy/plugin.js';
import { policyMetrics } from '../validating-admission-policy/metrics.js';
import { ValidatingAdmissionPolicyPlugin } from '../validating-admission-policy/plugin.js';
import { PolicySource } from '../validating-admission-policy/policy-source.js';

/** ValidatingAdmissionPolicy (policies and bindings from shared informers) and MutatingAdmissionPolicy (inert: its gate is off). */
export const policyFactories: AdmissionPluginFactories = {
  ValidatingAdmissionPolicy: (deps) => {
    const group = 'admissionregistration.k8s.io';
    const source = new PolicySource(deps.informers.get(group, 'validatingadmissionpolicies'), deps.informers.get(group, 'validatingadmissionpolicybindings'));
    return new ValidatingAdmissionPolicyPlugin({ source, informers: deps.informers, authorizer: deps.authorizer, metrics: policyMetrics(deps.metrics.registry) });
  },
  MutatingAdmissionPolicy: () => new MutatingAdmissionPolicyPlugin(),
};
