/**
 * An authorizer that counts its terminal decisions in apiserver_authorization_decisions_total
 * (kube's InstrumentedAuthorizer): Allow as "allowed", Deny as "denied", NoOpinion not at all.
 * A synchronous authorizer stays synchronous.
 */
import type { Counter } from 'prom-client';
import type { UserInfo } from '../request/context.js';
import type { AuthorizationAttributes, AuthorizationDecision, Authorizer, MaybePromise, RuleAuthorizer, RulesResult } from './interface.js';

const unknownRules: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: true };

/** Wraps delegate; type is the authorizer type (RBAC, Node, Webhook, ...), authorizerName its name (rbac, node, webhook, ...). */
export class InstrumentedAuthorizer implements RuleAuthorizer {
  readonly name: string;
  private readonly allowed;
  private readonly denied;

  constructor(
    private readonly delegate: Authorizer,
    type: string,
    authorizerName: string,
    decisions: Counter<'type' | 'name' | 'decision'>,
  ) {
    this.name = delegate.name;
    // Label children resolved once: nothing is looked up per request.
    this.allowed = decisions.labels({ type, name: authorizerName, decision: 'allowed' });
    this.denied = decisions.labels({ type, name: authorizerName, decision: 'denied' });
  }

  authorize(attrs: AuthorizationAttributes): MaybePromise<AuthorizationDecision> {
    const d = this.delegate.authorize(attrs);
    if (d instanceof Promise) return d.then((r) => this.count(r));
    return this.count(d);
  }

  rulesFor(user: UserInfo, namespace: string): MaybePromise<RulesResult> {
    const resolver = this.delegate as Partial<RuleAuthorizer>;
    return typeof resolver.rulesFor === 'function' ? resolver.rulesFor(user, namespace) : unknownRules;
  }

  private count(d: AuthorizationDecision): AuthorizationDecision {
    if (d.decision === 'Allow') this.allowed.inc();
    else if (d.decision === 'Deny') this.denied.inc();
    return d;
  }
}
