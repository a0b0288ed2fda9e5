/**
 * A role's rules compiled once per change of the role: every list present (no optional fields to
 * test per request) and frozen, and the rules grouped by the verbs they name, so a decision hands
 * kube's RuleAllows only the rules that can match its verb.
 */
import type { PolicyRule } from '../rules.js';

const none: readonly string[] = Object.freeze([]);
const noRules: readonly PolicyRule[] = Object.freeze([]);

/** A role as decisions read it. Immutable. */
export interface CompiledRole {
  /** Every rule, in the role's order. */
  readonly rules: readonly PolicyRule[];
  /** For each verb some rule names: the rules naming it or "*", in the role's order. */
  readonly byVerb: ReadonlyMap<string, readonly PolicyRule[]>;
  /** The rules naming "*" (what any other verb can match). */
  readonly anyVerb: readonly PolicyRule[];
}

function list(v: unknown): readonly string[] {
  return Array.isArray(v) && v.length > 0 ? Object.freeze(v.filter((x): x is string => typeof x === 'string')) : none;
}

/** rules (as stored: fields may be absent or null) in the shape the matcher reads. */
export function compileRules(rules: unknown): readonly PolicyRule[] {
  if (!Array.isArray(rules) || rules.length === 0) return noRules;
  return Object.freeze(
    rules.map((raw) => {
      const r = (raw ?? {}) as Record<string, unknown>;
      return Object.freeze({
        verbs: list(r.verbs),
        apiGroups: list(r.apiGroups),
        resources: list(r.resources),
        resourceNames: list(r.resourceNames),
        nonResourceURLs: list(r.nonResourceURLs),
      });
    }),
  );
}

/** Compiles a role's rules (as stored) for decisions. */
export function compileRole(raw: unknown): CompiledRole {
  const rules = compileRules(raw);
  const verbs = new Set<string>();
  for (const r of rules) for (const v of r.verbs) if (v !== '*') verbs.add(v);
  const byVerb = new Map<string, readonly PolicyRule[]>();
  for (const v of verbs) byVerb.set(v, Object.freeze(rules.filter((r) => r.verbs.includes(v) || r.verbs.includes('*'))));
  return Object.freeze({ rules, byVerb, anyVerb: Object.freeze(rules.filter((r) => r.verbs.includes('*'))) });
}

/** The rules of role that can allow verb. */
export function rulesForVerb(role: CompiledRole, verb: string): readonly PolicyRule[] {
  return role.byVerb.get(verb) ?? role.anyVerb;
}
