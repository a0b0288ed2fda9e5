/**
 * The authorizer union (--authorization-mode order): asks each authorizer in turn; the first Allow
 * or Deny is the answer, NoOpinion passes on. When every member has no opinion the request is
 * denied (by the filter) with the members' reasons joined. Rules are the members' rules together,
 * incomplete when any member's are.
 */
import type { UserInfo } from '../request/context.js';
import type { AuthorizationAttributes, AuthorizationDecision, Authorizer, MaybePromise, NonResourceRuleInfo, ResourceRuleInfo, RuleAuthorizer, RulesResult } from './interface.js';

interface Accumulated {
  readonly reasons: string[];
  readonly errors: string[];
}

function accumulate(acc: Accumulated, d: AuthorizationDecision): void {
  if (d.reason) acc.reasons.push(d.reason);
  if (d.error) acc.errors.push(d.error);
}

function noOpinion(acc: Accumulated): AuthorizationDecision {
  const { reasons, errors } = acc;
  return {
    decision: 'NoOpinion',
    reason: reasons.join('\n'),
    ...(errors.length > 0 ? { error: errors.length === 1 ? errors[0] : `[${errors.join(', ')}]` } : {}),
  };
}

/** Several authorizers as one. */
export class UnionAuthorizer implements RuleAuthorizer {
  readonly name = 'union';

  constructor(readonly members: readonly Authorizer[]) {}

  /**
   * Answers synchronously while every member does (RBAC and the privileged-groups check decide
   * from memory): no promise per request on the common path; a member's promise (a webhook)
   * switches the rest of the walk to async.
   */
  authorize(attrs: AuthorizationAttributes): MaybePromise<AuthorizationDecision> {
    const acc: Accumulated = { reasons: [], errors: [] };
    for (let i = 0; i < this.members.length; i++) {
      const d = (this.members[i] as Authorizer).authorize(attrs);
      if (d instanceof Promise) return this.authorizeAsync(attrs, d, i, acc);
      if (d.decision !== 'NoOpinion') return d;
      accumulate(acc, d);
    }
    return noOpinion(acc);
  }

  private async authorizeAsync(attrs: AuthorizationAttributes, pending: Promise<AuthorizationDecision>, index: number, acc: Accumulated): Promise<AuthorizationDecision> {
    const first = await pending;
    if (first.decision !== 'NoOpinion') return first;
    accumulate(acc, first);
    for (let i = index + 1; i < this.members.length; i++) {
      const d = await (this.members[i] as Authorizer).authorize(attrs);
      if (d.decision !== 'NoOpinion') return d;
      accumulate(acc, d);
    }
    return noOpinion(acc);
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
