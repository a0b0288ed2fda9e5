/**
 * MutatingAdmissionPolicy (kube's admission plugin of that name). In kube 1.33 it acts only when
 * the MutatingAdmissionPolicy feature gate (alpha, off by default) is on. Capstan refuses
 * --feature-gates=MutatingAdmissionPolicy=true (the CEL mutations are not built), so the gate is
 * off and the plugin, like kube's with its gate off, handles no operation and changes nothing,
 * though admissionregistration.k8s.io/v1alpha1 policies and bindings can be stored (with that
 * version enabled by --runtime-config).
 */
import type { AdmissionOperation, AdmissionPlugin } from '../../interface.js';

/** The MutatingAdmissionPolicy plugin with its feature gate off. */
export class MutatingAdmissionPolicyPlugin implements AdmissionPlugin {
  readonly name = 'MutatingAdmissionPolicy';

  handles(_operation: AdmissionOperation): boolean {
    return false;
  }
}
