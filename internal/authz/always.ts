/**
 * The AlwaysAllow and AlwaysDeny modes: every request allowed (kube-apiserver's default mode) or
 * none. Like kube's alwaysDenyAuthorizer, AlwaysDeny answers NoOpinion with its reason, so a mode
 * after it may still allow, and a request nobody allows is refused with "Everything is forbidden.".
 * AlwaysAllow reports the rule "everything"; AlwaysDeny reports none.
 */
import type { AuthorizationDecision, RuleAuthorizer, RulesResult } from './interface.js';

const allow: AuthorizationDecision = { decision: 'Allow', reason: '' };
const deny: AuthorizationDecision = { decision: 'NoOpinion', reason: 'Everything is forbidden.' };

const everything: RulesResult = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
};
const nothing: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };

/** --authorization-mode=AlwaysAllow. */
export const alwaysAllow: RuleAuthorizer = {
  name: 'AlwaysAllow',
  authorize: () => allow,
  rulesFor: () => everything,
};

/** --authorization-mode=AlwaysDeny. */
export const alwaysDeny: RuleAuthorizer = {
  name: 'AlwaysDeny',
  authorize: () => deny,
  rulesFor: () => nothing,
};
