/**
 * How kube lists missing permissions in its escalation error: simple rules (one group, one
 * resource, at most one name, nothing else) that differ only by verb are merged (CompactRules),
 * and each rule is printed as `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}`
 * (rbacv1helpers.CompactString).
 */
import { goQuote } from '../../validation/field-error.js';
import type { PolicyRule } from '../rules.js';

function goStrings(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}

/** CompactString: the rule's non-empty fields in kube's order, as Go's %q prints string slices. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if ((r.apiGroups?.length ?? 0) > 0) parts.push(`APIGroups:${goStrings(r.apiGroups ?? [])}`);
  if ((r.resources?.length ?? 0) > 0) parts.push(`Resources:${goStrings(r.resources ?? [])}`);
  if ((r.nonResourceURLs?.length ?? 0) > 0) parts.push(`NonResourceURLs:${goStrings(r.nonResourceURLs ?? [])}`);
  if ((r.resourceNames?.length ?? 0) > 0) parts.push(`ResourceNames:${goStrings(r.resourceNames ?? [])}`);
  if (r.verbs.length > 0) parts.push(`Verbs:${goStrings(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

function simpleKey(r: PolicyRule): string | undefined {
  const names = r.resourceNames ?? [];
  if (names.length > 1 || (r.nonResourceURLs?.length ?? 0) > 0) return undefined;
  if (r.apiGroups?.length !== 1 || r.resources?.length !== 1) return undefined;
  return JSON.stringify([r.apiGroups[0], r.resources[0], names.length > 0, names[0] ?? '']);
}

/** CompactRules: merges the verbs of simple rules naming the same group, resource and name. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, { verbs: string[]; rule: PolicyRule }>();
  for (const r of rules) {
    const key = simpleKey(r);
    if (key === undefined) {
      out.push(r);
      continue;
    }
    const existing = simple.get(key);
    if (existing) {
      for (const v of r.verbs) if (!existing.verbs.includes(v)) existing.verbs.push(v);
    } else {
      simple.set(key, { verbs: [...r.verbs], rule: r });
    }
  }
  for (const { verbs, rule } of simple.values()) out.push({ ...rule, verbs });
  return out;
}
