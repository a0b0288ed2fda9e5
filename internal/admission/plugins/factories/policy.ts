/** Admission plugin factories of this family, by kube's plugin name (see ../registry.ts). */
import { hasReason } from '../../../apierrors/status-error.js';
import { internalContext } from '../../../request/context.js';
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
    const namespaces = deps.storageOf('', 'namespaces');
    const getNamespace = async (name: string) => {
      try {
        return await namespaces?.get?.(internalContext({ verb: 'get', resource: 'namespaces', name }), name, { resourceVersion: '' });
      } catch (err) {
        if (hasReason(err, 'NotFound')) return undefined;
        throw err;
      }
    };
    return new ValidatingAdmissionPolicyPlugin({ source, informers: deps.informers, authorizer: deps.authorizer, metrics: policyMetrics(deps.metrics.registry), getNamespace });
  },
  MutatingAdmissionPolicy: () => new MutatingAdmissionPolicyPlugin(),
};
