/**
 * A role's rules compiled once per change of the role: every list present (no optional fields to
 * test per request) and frozen, so decisions read them without copying.
 */
import type { PolicyRule } from '../rules.js';

const none: readonly string[] = Object.freeze([]);
const noRules: readonly PolicyRule[] = Object.freeze([]);

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
