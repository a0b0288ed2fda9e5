/**
 * Policy rule matching as RBAC defines it (kube's rbac.RuleAllows): a rule allows a resource request
 * when its verbs, API groups, resources (with "resource/subresource" and "*\/subresource" forms) and
 * resource names match, and a non-resource request when its verbs and URLs match ("*" and trailing
 * "*" prefixes). Shared by the RBAC and Node authorizers and the escalation check.
 */
import type { AuthorizationAttributes } from './interface.js';

/** An rbac.authorization.k8s.io/v1 PolicyRule. */
export interface PolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

/** "*" in a rule's list matches everything. */
export const all = '*';

/** Whether the rule names the verb. */
export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.includes(all) || rule.verbs.includes(verb);
}

/** Whether the rule names the API group. */
export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  const groups = rule.apiGroups ?? [];
  return groups.includes(all) || groups.includes(group);
}

/**
 * Whether the rule names the resource: combined is "resource" or "resource/subresource"; a rule
 * entry "*\/subresource" names that subresource of every resource. "pods" does not name "pods/log".
 */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === all || r === combined) return true;
    if (subresource && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

/** Whether the rule allows the name (a rule without resourceNames allows every name, also none). */
export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

/** Whether the rule names the URL path ("*", the path itself, or a prefix ending in "*"). */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === all || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.slice(0, -1))) return true;
  }
  return false;
}

/** Whether rule allows the request described by attrs. */
export function ruleAllows(attrs: AuthorizationAttributes, rule: PolicyRule): boolean {
  if (attrs.isResourceRequest) {
    const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
    return (
      verbMatches(rule, attrs.verb) &&
      apiGroupMatches(rule, attrs.apiGroup) &&
      resourceMatches(rule, combined, attrs.subresource) &&
      resourceNameMatches(rule, attrs.name)
    );
  }
  return verbMatches(rule, attrs.verb) && nonResourceURLMatches(rule, attrs.path);
}

/** Whether any of rules allows the request. */
export function rulesAllow(attrs: AuthorizationAttributes, rules: readonly PolicyRule[]): boolean {
  for (const r of rules) if (ruleAllows(attrs, r)) return true;
  return false;
}
