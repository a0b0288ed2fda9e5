/**
 * The RBAC authorizer (--authorization-mode=RBAC, kube's RBACAuthorizer): allows a request when a
 * role bound to the user (by a ClusterRoleBinding, or by a RoleBinding in the request's namespace)
 * has a rule allowing it, with kube's reason `RBAC: allowed by ClusterRoleBinding "x" of
 * ClusterRole "y" to User "z"`. Otherwise it has no opinion; its reason then names the errors met
 * (bindings to roles that do not exist), e.g. `RBAC: clusterrole.rbac.authorization.k8s.io "y" not
 * found`, and is empty when there were none. Answers synchronously from the in-memory index.
 */
import type { UserInfo } from '../../request/context.js';
import { goQuote } from '../../validation/field-error.js';
import type { AuthorizationAttributes, AuthorizationDecision, NonResourceRuleInfo, ResourceRuleInfo, RuleAuthorizer, RulesResult } from '../interface.js';
import { missingRoleMessage, type RbacIndex } from './index.js';
import { firstSubjectNaming, type IndexedBinding } from './subject-index.js';
import { describeSubject } from './subjects.js';
import { aggregateMessage, type Subject } from './types.js';

const noOpinion: AuthorizationDecision = Object.freeze({ decision: 'NoOpinion', reason: '' });

/** kube's clusterRoleBindingDescriber / roleBindingDescriber for the binding's subject s. */
export function describeBinding(b: IndexedBinding, s: Subject): string {
  const name = b.kind === 'RoleBinding' ? `${b.name}/${b.namespace}` : b.name;
  return `${b.kind} ${goQuote(name)} of ${b.roleRef.kind} ${goQuote(b.roleRef.name)} to ${describeSubject(s, b.namespace)}`;
}

/** The Allow decision through b for user (the first of b's subjects naming user), built once per subject. */
function allowedThrough(b: IndexedBinding, user: UserInfo): AuthorizationDecision {
  // b was found through one of its subjects, so one names user.
  const i = Math.max(0, firstSubjectNaming(b, user));
  const cached = b.allowed[i];
  if (cached) return cached;
  const subject = b.subjects[i] as Subject;
  const decision: AuthorizationDecision = Object.freeze({ decision: 'Allow', reason: `RBAC: allowed by ${describeBinding(b, subject)}` });
  b.allowed[i] = decision;
  return decision;
}

/** The RBAC mode over an index kept current by informers. */
export class RbacAuthorizer implements RuleAuthorizer {
  readonly name = 'RBAC';

  // Reused by every decision (they run synchronously, one at a time), so none allocates a list.
  private readonly missing: IndexedBinding[] = [];

  constructor(private readonly index: RbacIndex) {}

  authorize(attrs: AuthorizationAttributes): AuthorizationDecision {
    const missing = this.missing;
    missing.length = 0;
    const b = this.index.findAllowing(attrs, missing);
    if (b) return allowedThrough(b, attrs.user);
    if (missing.length === 0) return noOpinion;
    return { decision: 'NoOpinion', reason: `RBAC: ${aggregateMessage(missing.map((m) => missingRoleMessage(m.roleRef)))}` };
  }

  rulesFor(user: UserInfo, namespace: string): RulesResult {
    const { rules, errors } = this.index.policyRulesFor(user, namespace);
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    for (const r of rules) {
      if ((r.resources?.length ?? 0) > 0) {
        resourceRules.push({ verbs: r.verbs, apiGroups: r.apiGroups ?? [], resources: r.resources ?? [], resourceNames: r.resourceNames ?? [] });
      }
      if ((r.nonResourceURLs?.length ?? 0) > 0) nonResourceRules.push({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs ?? [] });
    }
    return { resourceRules, nonResourceRules, incomplete: false, ...(errors.length > 0 ? { evaluationError: aggregateMessage(errors) } : {}) };
  }
}
