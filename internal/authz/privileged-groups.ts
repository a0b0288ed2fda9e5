/**
 * The privileged-groups authorizer kube-apiserver puts before every --authorization-mode: a member
 * of system:masters may do anything, whatever the modes say; everyone else gets no opinion. It
 * lists no rules (kube does not ask it for SelfSubjectRulesReview either: system:masters' rules come
 * from the cluster-admin binding).
 */
import type { UserInfo } from '../request/context.js';
import type { AuthorizationAttributes, AuthorizationDecision, RuleAuthorizer, RulesResult } from './interface.js';

/** user.SystemPrivilegedGroup. */
export const systemMasters = 'system:masters';

const allow: AuthorizationDecision = { decision: 'Allow', reason: '' };
const noOpinion: AuthorizationDecision = { decision: 'NoOpinion', reason: '' };
const noRules: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };

/** Allows every request of a user in one of groups. Synchronous and allocation-free. */
export class PrivilegedGroupsAuthorizer implements RuleAuthorizer {
  readonly name = 'PrivilegedGroups';

  constructor(private readonly groups: readonly string[] = [systemMasters]) {}

  authorize(attrs: AuthorizationAttributes): AuthorizationDecision {
    for (const g of attrs.user.groups) if (this.groups.includes(g)) return allow;
    return noOpinion;
  }

  rulesFor(_user: UserInfo, _namespace: string): RulesResult {
    return noRules;
  }
}
