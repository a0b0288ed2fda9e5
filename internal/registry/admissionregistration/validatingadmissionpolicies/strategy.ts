/**
 * ValidatingAdmissionPolicy rules (kube's pkg/registry/admissionregistration/validatingadmissionpolicy): a failure policy, match constraints and validations;
 * generation tracking; status written only through validatingadmissionpolicies/status.
 */
import type { KubeObject } from '../../../../api/meta/types.js';
import type { StatusStrategy } from '../../generic/strategy.js';
import { takeAllButStatusFrom } from '../../core/shared/status-write.js';
import { defineStrategy } from '../../shared/strategy-factory.js';
import { defaultAdmissionPolicy } from '../shared/defaults.js';
import { validatePolicyExpressions } from '../shared/policy-expressions.js';
import { validateAdmissionPolicy } from '../shared/validation.js';

/** The ValidatingAdmissionPolicy strategy. */
export const validatingAdmissionPolicyStrategy = defineStrategy({
  namespaced: false,
  tracksGeneration: true,
  hasStatus: true,
  validate: (obj) => [...validateAdmissionPolicy(obj, false), ...validatePolicyExpressions(obj)],
});

/** validatingadmissionpolicies/status: only status changes. */
export const validatingAdmissionPolicyStatusStrategy: StatusStrategy = {
  prepareForUpdate(_ctx, obj, old) {
    takeAllButStatusFrom(obj, old);
  },
  validateUpdate() {
    return [];
  },
};

/** admissionregistration.k8s.io/v1 defaulting of a ValidatingAdmissionPolicy. Mutates obj. */
export function defaultValidatingAdmissionPolicy(obj: KubeObject): void {
  defaultAdmissionPolicy(obj);
}
