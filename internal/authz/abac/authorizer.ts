/**
 * The ABAC authorizer (kube's abac.PolicyList): a request is allowed when any policy matches its
 * subject (user and group, "*" for any), its verb (a readonly policy matches only get, list and
 * watch) and either its resource (namespace, resource and API group, each exact or "*") or its
 * non-resource path (exact, "*", or a prefix ending in "*"). Otherwise no opinion, "No policy matched.".
 */
import type { UserInfo } from '../../request/context.js';
import type { AuthorizationAttributes, AuthorizationDecision, NonResourceRuleInfo, ResourceRuleInfo, RuleAuthorizer, RulesResult } from '../interface.js';
import type { AbacPolicy } from './policy.js';

const allow: AuthorizationDecision = { decision: 'Allow', reason: '' };
const noMatch: AuthorizationDecision = { decision: 'NoOpinion', reason: 'No policy matched.' };

/** Whether the policy names the user (kube's subjectMatches: every field given must match, and one must be given). */
export function subjectMatches(p: AbacPolicy, user: UserInfo): boolean {
  let matched = false;
  if (p.user !== '') {
    if (p.user === '*') matched = true;
    else if (p.user === user.name) matched = true;
    else return false;
  }
  if (p.group !== '') {
    if (p.group === '*') matched = true;
    else if (user.groups.includes(p.group)) matched = true;
    else return false;
  }
  return matched;
}

function isReadOnly(verb: string): boolean {
  return verb === 'get' || verb === 'list' || verb === 'watch';
}

function resourceMatches(p: AbacPolicy, a: AuthorizationAttributes): boolean {
  return (
    a.isResourceRequest &&
    (p.namespace === '*' || p.namespace === a.namespace) &&
    (p.resource === '*' || p.resource === a.resource) &&
    (p.apiGroup === '*' || p.apiGroup === a.apiGroup)
  );
}

function nonResourceMatches(p: AbacPolicy, a: AuthorizationAttributes): boolean {
  if (a.isResourceRequest) return false;
  const path = p.nonResourcePath;
  if (path === '*' || path === a.path) return true;
  if (!path.endsWith('*')) return false;
  return a.path.startsWith(path.replace(/\*+$/, ''));
}

/** Whether policy p allows the request. */
export function policyMatches(p: AbacPolicy, a: AuthorizationAttributes): boolean {
  if (!subjectMatches(p, a.user)) return false;
  if (p.readonly && !isReadOnly(a.verb)) return false;
  return resourceMatches(p, a) || nonResourceMatches(p, a);
}

/** --authorization-mode=ABAC over a parsed policy file. Synchronous; safe to share. */
export class AbacAuthorizer implements RuleAuthorizer {
  readonly name = 'ABAC';

  constructor(private readonly policies: readonly AbacPolicy[]) {}

  authorize(attrs: AuthorizationAttributes): AuthorizationDecision {
    for (const p of this.policies) if (policyMatches(p, attrs)) return allow;
    return noMatch;
  }

  rulesFor(user: UserInfo, namespace: string): RulesResult {
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    for (const p of this.policies) {
      if (!subjectMatches(p, user) || (p.namespace !== '*' && p.namespace !== namespace)) continue;
      const verbs = p.readonly ? ['get', 'list', 'watch'] : ['*'];
      if (p.resource !== '') resourceRules.push({ verbs, apiGroups: [p.apiGroup], resources: [p.resource] });
      if (p.nonResourcePath !== '') nonResourceRules.push({ verbs, nonResourceURLs: [p.nonResourcePath] });
    }
    return { resourceRules, nonResourceRules, incomplete: false };
  }
}
