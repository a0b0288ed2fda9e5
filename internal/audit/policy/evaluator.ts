/**
 * The policy rule evaluator (kube's policy.NewPolicyRuleEvaluator): the first rule that matches a
 * request decides its level; a rule omits its own stages and the policy's; a rule's
 * omitManagedFields, when set, overrides the policy's. A request no rule matches is not audited
 * (level None). Matching is kube's ruleMatches: every non-empty list of a rule must match, and a
 * rule naming resources or namespaces matches resource requests only, one naming non-resource URLs
 * non-resource requests only. Lists are turned into sets once; evaluating allocates nothing.
 */
import type { AuditAttributes, AuditLevel, AuditPolicyEvaluator, AuditRequirement, AuditStage } from '../interface.js';
import type { AuditPolicy, GroupResources, PolicyRule } from './types.js';

interface CompiledGroup {
  readonly group: string;
  readonly resources: readonly string[];
  readonly names: ReadonlySet<string> | undefined;
}

interface CompiledRule {
  readonly users: ReadonlySet<string> | undefined;
  readonly userGroups: ReadonlySet<string> | undefined;
  readonly verbs: ReadonlySet<string> | undefined;
  readonly namespaces: ReadonlySet<string> | undefined;
  readonly groups: readonly CompiledGroup[];
  readonly nonResourceURLs: readonly string[];
  readonly requirement: AuditRequirement;
}

function setOf(list: readonly string[]): ReadonlySet<string> | undefined {
  return list.length > 0 ? new Set(list) : undefined;
}

function compileGroup(g: GroupResources): CompiledGroup {
  return { group: g.group, resources: g.resources, names: setOf(g.resourceNames) };
}

/** Whether path matches a nonResourceURLs entry: "*", the exact path, or a prefix ending in "*". */
export function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function resourceMatches(res: string, resource: string, subresource: string, combined: string): boolean {
  if (res === combined || res === '*') return true;
  // "*/scale" matches the scale subresource of every resource.
  if (subresource !== '' && res.startsWith('*/') && subresource === res.slice(2)) return true;
  // "pods/*" matches pods and each of its subresources.
  return res.endsWith('/*') && resource === res.slice(0, -2);
}

function matchesResource(r: CompiledRule, a: AuditAttributes): boolean {
  if (!a.isResourceRequest) return false;
  // Cluster-scoped resources (and the namespaces resource's collection) have the namespace "".
  if (r.namespaces && !r.namespaces.has(a.namespace)) return false;
  if (r.groups.length === 0) return true;
  const combined = a.subresource !== '' ? `${a.resource}/${a.subresource}` : a.resource;
  for (const g of r.groups) {
    if (g.group !== a.apiGroup) continue;
    if (g.resources.length === 0) return true;
    if (g.names && !g.names.has(a.name)) continue;
    for (const res of g.resources) if (resourceMatches(res, a.resource, a.subresource, combined)) return true;
  }
  return false;
}

function matches(r: CompiledRule, a: AuditAttributes): boolean {
  if (r.users && !r.users.has(a.user.name)) return false;
  if (r.userGroups && !a.user.groups.some((g) => r.userGroups?.has(g))) return false;
  if (r.verbs && !r.verbs.has(a.verb)) return false;
  if (r.namespaces || r.groups.length > 0) return matchesResource(r, a);
  if (r.nonResourceURLs.length > 0) return !a.isResourceRequest && r.nonResourceURLs.some((spec) => pathMatches(a.path, spec));
  return true;
}

/** Evaluates a validated policy. */
export class PolicyRuleEvaluator implements AuditPolicyEvaluator {
  private readonly rules: readonly CompiledRule[];
  private readonly fallback: AuditRequirement;

  constructor(policy: AuditPolicy) {
    const policyStages = policy.omitStages as readonly AuditStage[];
    this.fallback = { level: 'None', omitStages: [...new Set(policyStages)], omitManagedFields: policy.omitManagedFields };
    this.rules = policy.rules.map((rule: PolicyRule) => ({
      users: setOf(rule.users),
      userGroups: setOf(rule.userGroups),
      verbs: setOf(rule.verbs),
      namespaces: setOf(rule.namespaces),
      groups: rule.resources.map(compileGroup),
      nonResourceURLs: rule.nonResourceURLs,
      requirement: {
        level: rule.level as AuditLevel,
        omitStages: [...new Set([...policyStages, ...(rule.omitStages as readonly AuditStage[])])],
        omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields,
      },
    }));
  }

  evaluate(attrs: AuditAttributes): AuditRequirement {
    for (const r of this.rules) if (matches(r, attrs)) return r.requirement;
    return this.fallback;
  }
}
