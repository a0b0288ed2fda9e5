/**
 * Whether one set of policy rules covers another (kube's component-helpers rbac validation
 * Covers): the covered rules are broken down into rules of one verb, one group, one resource and
 * at most one name (or one URL and one verb), and each piece must be covered by some owner rule.
 * Used by the escalation check and by the bootstrap policy's reconciliation.
 */
import type { PolicyRule } from '../rules.js';

const all = '*';

/** BreakdownRule: the equivalent list of rules with at most one verb, resource and name each. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  const names = rule.resourceNames ?? [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (names.length > 0) {
          for (const name of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function hasAll(set: readonly string[], contains: readonly string[]): boolean {
  return contains.every((c) => set.includes(c));
}

function resourceCoversAll(owner: readonly string[], covered: readonly string[]): boolean {
  if (owner.includes(all) || hasAll(owner, covered)) return true;
  for (const path of covered) {
    if (owner.includes(path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!owner.includes(`*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function urlCovers(owner: string, path: string): boolean {
  if (owner === path) return true;
  return owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, ''));
}

function urlsCoverAll(owner: readonly string[], covered: readonly string[]): boolean {
  return covered.every((p) => owner.some((o) => urlCovers(o, p)));
}

/** ruleCovers: whether owner covers sub (a rule from breakdownRule). */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs.includes(all) || hasAll(owner.verbs, sub.verbs);
  const groups = (owner.apiGroups ?? []).includes(all) || hasAll(owner.apiGroups ?? [], sub.apiGroups ?? []);
  const resources = resourceCoversAll(owner.resources ?? [], sub.resources ?? []);
  const urls = urlsCoverAll(owner.nonResourceURLs ?? [], sub.nonResourceURLs ?? []);
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const names = subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbs && groups && resources && names && urls;
}

/** Covers: whether owner covers every rule of covered, and the broken-down pieces it does not. */
export function covers(owner: readonly PolicyRule[], covered: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const rule of covered) {
    for (const piece of breakdownRule(rule)) {
      if (!owner.some((o) => ruleCovers(o, piece))) missing.push(piece);
    }
  }
  return { covered: missing.length === 0, missing };
}
