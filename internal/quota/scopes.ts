/**
 * Quota scopes: a quota's spec.scopes (each an Exists selector) and spec.scopeSelector expressions,
 * matched against an object through its evaluator (kube's generic.Matches and the evaluators'
 * MatchingScopes / UncoveredQuotaScopes).
 */
import type { KubeObject } from '../../api/meta/types.js';
import type { QuotaEvaluator, QuotaObject, ScopeSelectorRequirement } from './interface.js';

/** The selectors of a quota: its scopes as Exists, then its scopeSelector expressions. */
export function scopeSelectorsOf(quota: QuotaObject): ScopeSelectorRequirement[] {
  const out: ScopeSelectorRequirement[] = (quota.spec?.scopes ?? []).map((s) => ({ scopeName: s, operator: 'Exists' }));
  for (const e of quota.spec?.scopeSelector?.matchExpressions ?? []) out.push(e);
  return out;
}

/**
 * A label-selector requirement on the single label {scopeName: value} (kube's
 * ScopedResourceSelectorRequirementsAsSelector): value undefined when the object has none.
 */
export function matchesScopeValue(selector: ScopeSelectorRequirement, value: string | undefined): boolean {
  const values = selector.values ?? [];
  switch (selector.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    default:
      return false;
  }
}

/** generic.Matches: the quota limits something the evaluator tracks and obj is in every scope. */
export function quotaMatches(evaluator: QuotaEvaluator, quota: QuotaObject, obj: KubeObject): boolean {
  const hard = Object.keys(quota.status?.hard ?? {});
  if (evaluator.matchingResources(hard).length === 0) return false;
  for (const s of scopeSelectorsOf(quota)) if (!evaluator.matchesScope(s, obj)) return false;
  return true;
}

/** MatchingScopes: the selectors obj satisfies. */
export function matchingScopes(evaluator: QuotaEvaluator, obj: KubeObject, selectors: readonly ScopeSelectorRequirement[]): ScopeSelectorRequirement[] {
  if (!evaluator.scoped) return [];
  return selectors.filter((s) => evaluator.matchesScope(s, obj));
}

/** UncoveredQuotaScopes: limited scopes no matched quota scope has the name of. */
export function uncoveredScopes(
  evaluator: QuotaEvaluator,
  limited: readonly ScopeSelectorRequirement[],
  matched: readonly ScopeSelectorRequirement[],
): ScopeSelectorRequirement[] {
  if (!evaluator.scoped) return [];
  return limited.filter((l) => !matched.some((m) => m.scopeName === l.scopeName));
}

