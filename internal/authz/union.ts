/**
 * The authorizer union (--authorization-mode order): asks each authorizer in turn; the first Allow
 * or Deny is the answer, NoOpinion passes on. When every member has no opinion the request is
 * denied (by the filter) with the members' reasons joined. Rules are the members' rules together,
 * incomplete when any member's are.
 */
import type { UserInfo } from '../request/context.js';
import type { AuthorizationAttributes, AuthorizationDecision, Authorizer, NonResourceRuleInfo, ResourceRuleInfo, RuleAuthorizer, RulesResult } from './interface.js';

/** Several authorizers as one. */
export class UnionAuthorizer implements RuleAuthorizer {
  readonly name = 'union';

  constructor(readonly members: readonly Authorizer[]) {}

  async authorize(attrs: AuthorizationAttributes): Promise<AuthorizationDecision> {
    const reasons: string[] = [];
    const errors: string[] = [];
    for (const a of this.members) {
      const d = await a.authorize(attrs);
      if (d.decision !== 'NoOpinion') return d;
      if (d.reason) reasons.push(d.reason);
      if (d.error) errors.push(d.error);
    }
    return {
      decision: 'NoOpinion',
      reason: reasons.join('\n'),
      ...(errors.length > 0 ? { error: errors.length === 1 ? errors[0] : `[${errors.join(', ')}]` } : {}),
    };
  }

  async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    const errors: string[] = [];
    let incomplete = false;
    for (const a of this.members) {
      const resolver = a as Partial<RuleAuthorizer>;
      if (typeof resolver.rulesFor !== 'function') {
        incomplete = true;
        continue;
      }
      const r = await resolver.rulesFor(user, namespace);
      resourceRules.push(...r.resourceRules);
      nonResourceRules.push(...r.nonResourceRules);
      if (r.incomplete) incomplete = true;
      if (r.evaluationError) errors.push(r.evaluationError);
    }
    return { resourceRules, nonResourceRules, incomplete, ...(errors.length > 0 ? { evaluationError: errors.join(', ') } : {}) };
  }
}
