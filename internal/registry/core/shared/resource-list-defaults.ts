/**
 * SetDefaults_ResourceList: every quantity in a resource list (container requests and limits,
 * overhead, node capacity) rounded up to milli precision and written as kube writes it back (its
 * canonical form, or the input when that already was canonical). A value that does not parse is
 * left as sent for validation to report.
 */
import { quantityFromJSON } from '../../../validation/quantity.js';

/** Rounds and canonicalises each quantity of list in place. Mutates list; idempotent. */
export function defaultResourceList(list: unknown): void {
  if (typeof list !== 'object' || list === null || Array.isArray(list)) return;
  const entries = list as Record<string, unknown>;
  for (const [name, raw] of Object.entries(entries)) {
    let text: string;
    try {
      text = quantityFromJSON(raw).roundUp(-3).quantity.toString();
    } catch {
      continue;
    }
    entries[name] = text;
  }
}
